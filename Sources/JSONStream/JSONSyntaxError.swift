/// Why a document is not RFC 8259 JSON, and where. The message never quotes document content: request bodies may
/// carry feature values, which must not reach logs or error responses.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        case unexpectedEnd = "unexpected end of input"
        case unexpectedCharacter = "unexpected character"
        case invalidNumber = "invalid number"
        case invalidString = "invalid string"
        case invalidEscape = "invalid escape sequence"
        case invalidUnicode = "invalid UTF-8"
        /// `\ud800` alone: RFC 8259's grammar allows it (§8.2), but it is not Unicode text, so no string holds it.
        case unpairedSurrogate = "unpaired surrogate escape"
        case controlCharacterInString = "control character in string"
        case tooDeep = "nesting too deep"
        case trailingContent = "content after the JSON value"
        case typeMismatch = "unexpected value type"
    }

    public var reason: Reason
    /// Byte offset in the input.
    public var offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String { "\(reason.rawValue) at byte \(offset)" }
}
