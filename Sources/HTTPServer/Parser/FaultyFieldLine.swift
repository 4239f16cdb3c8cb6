/// Where a field line the parser refused stands, for the answer's `errors[]`: a client told only "a field value
/// contains a control character" had to search its headers for it (HTTP probe, 7 December).
struct FaultyFieldLine: Equatable, Sendable {
    enum Section: String, Sendable {
        case header
        case trailer
    }

    var section: Section
    /// The line's number among the section's field lines, from 1.
    var line: Int
    /// The field's name where it is one that may be repeated back, nil where the line has none or it may not.
    var name: String?

    /// Longest name repeated; no registered field name is near it.
    static let longestRepeatedName = 64

    /// The name before the line's colon, trailing whitespace left out, if it is a token made of letters, digits,
    /// `-` and `_` alone with no more than four digits in a row: the rule the service's body errors follow for
    /// names, since anything else (an address, a number) may be personal data a client put in a header's name.
    static func repeatableName(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        repeatableNameRange(bytes, range).map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
    }

    /// Where `repeatableName` lies in `bytes`, for a caller that keeps the name's bytes without making a string.
    static func repeatableNameRange(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int>? {
        var end = range.lowerBound
        while end < range.upperBound && bytes[end] != UInt8(ascii: ":") { end += 1 }
        guard end < range.upperBound else { return nil }
        while end > range.lowerBound && ByteClass.isWhitespace(bytes[end - 1]) { end -= 1 }
        return isRepeatable(UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<end])) ? range.lowerBound..<end : nil
    }

    static func isRepeatable(_ name: some Collection<UInt8>) -> Bool {
        guard !name.isEmpty, name.count <= longestRepeatedName else { return false }
        var digitRun = 0
        for byte in name {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digitRun += 1
                if digitRun > 4 { return false }
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                digitRun = 0
            case UInt8(ascii: "-"), UInt8(ascii: "_"):
                continue
            default:
                return false
            }
        }
        return true
    }

    /// The entry of `errors[]`: the field by its name in `pointer`, as the routes name header fields, or `""` when
    /// it has none to repeat; the detail says which line, and why.
    func fieldError(for error: HTTPParseError) -> ProblemDetails.FieldError {
        let place = "\(section.rawValue) field line \(line)"
        let why = switch error {
        case .obsoleteLineFolding: "begins with whitespace, folding it into the line before (obsolete line folding is not accepted)"
        case .malformedFieldLine: "has no colon"
        case .whitespaceBeforeColon: "has whitespace between the field name and the colon"
        case .invalidFieldName: "has a field name that is not a valid token"
        case .invalidFieldValue: "has a value holding a control character (only tab, space and visible characters may appear)"
        default: error.detail
        }
        return ProblemDetails.FieldError(pointer: name ?? "", detail: "The \(place) \(why).", location: .header)
    }
}
