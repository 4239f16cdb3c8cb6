/// Why a manifest (and so a registry snapshot) was refused. The previous snapshot stays in service.
public struct ModelRegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The manifest or model file the problem is in.
    public var file: String
    public var reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
}
