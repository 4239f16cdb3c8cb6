/// Loading the feature catalogue failed. Every case names the file and, inside it, the RFC 6901 pointer of the
/// offending JSON value, so that the fix is obvious from the message alone.
public enum CatalogueError: Error, Sendable, Hashable, CustomStringConvertible {
    case missingFile(file: String)
    case unreadableFile(file: String, reason: String)
    /// The file is not valid JSON, or a value has the wrong JSON type.
    case malformedJSON(file: String, pointer: String, detail: String)
    /// The JSON is well-formed but the catalogue it declares is invalid.
    case invalid(file: String, pointer: String, problem: CatalogueProblem)

    public var description: String {
        switch self {
        case .missingFile(let file): "\(file): no such file"
        case .unreadableFile(let file, let reason): "\(file): cannot be read: \(reason)"
        case .malformedJSON(let file, let pointer, let detail): "\(file): \(Self.located(pointer))\(detail)"
        case .invalid(let file, let pointer, let problem): "\(file): \(Self.located(pointer))\(problem)"
        }
    }

    /// The whole document's pointer is "", which printed as `/` read as RFC 6901's member named "": a mistake in the
    /// document as a whole is said after the file's name alone, as the other configuration files say it.
    private static func located(_ pointer: String) -> String {
        pointer.isEmpty ? "" : pointer + ": "
    }
}
