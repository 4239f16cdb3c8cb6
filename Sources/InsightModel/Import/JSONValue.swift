/// A parsed JSON value that keeps numbers as their source text, so importers can round each number exactly once
/// into the precision the source library used (float32 for XGBoost).
enum JSONValue: Sendable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A number's text; nil for anything else, a string of digits too. XGBoost writes its tree arrays as numbers,
    /// so a string there (`"nan"` would parse as a float) means the file is not what it claims.
    var numberTokenText: String? {
        if case .number(let text) = self { return text }
        return nil
    }

    /// Number text, or a string's text (XGBoost writes many numbers as strings).
    var numberText: String? {
        switch self {
        case .number(let text), .string(let text): text
        default: nil
        }
    }
}
