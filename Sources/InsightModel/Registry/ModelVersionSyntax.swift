/// What a model version looks like: whole numbers separated by dots (`2026.09.1`), the shape `ModelVersionOrder`
/// compares part by part. A part may have leading zeros (`09`, a month), so `2026.12.01` and `2026.12.1` are one
/// version under the comparison; the manifest refuses the second of them.
public enum ModelVersionSyntax {
    public static let maximumLength = 64
    /// Digits per part: every such part is exactly an `Int`, so the comparison never overflows.
    public static let maximumDigitsPerPart = 18

    public static func check(_ version: String) throws(InvalidModelVersion) {
        guard !version.isEmpty else { throw .empty }
        guard version.utf8.count <= maximumLength else { throw .tooLong(version, limit: maximumLength) }
        for part in version.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                throw .notDotSeparatedNumbers(version)
            }
            guard part.utf8.count <= maximumDigitsPerPart else { throw .tooLong(version, limit: maximumLength) }
        }
    }
}

/// Why a string is not a model version.
public enum InvalidModelVersion: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case notDotSeparatedNumbers(String)
    case tooLong(String, limit: Int)

    public var description: String {
        switch self {
        case .empty:
            "the model version is empty: use whole numbers separated by dots, e.g. 2026.09.1"
        case .notDotSeparatedNumbers(let version):
            "'\(version)' is not a model version: use whole numbers (digits only) separated by dots, e.g. 2026.09.1"
        case .tooLong(let version, let limit):
            "'\(version.prefix(80))' is too long for a model version (at most \(limit) characters, \(ModelVersionSyntax.maximumDigitsPerPart) digits per part)"
        }
    }
}
