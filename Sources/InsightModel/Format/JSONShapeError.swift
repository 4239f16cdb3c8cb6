/// Why JSON bytes are not one of our documents (a model or a manifest): the path of the member at fault, as
/// `trees[3].missingtypes`, and what is wrong there. Every decoding failure of those documents is described here.
public struct JSONShapeError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        case notJSON
        /// Not RFC 8259 JSON (or a member name twice in one object), at this byte of the file.
        case syntax(offset: Int, message: String)
        case unknownKey
        case missingKey
        case null
        case wrongType(expected: String)
        case badValue(String)
    }

    /// Empty for the document itself.
    public var path: String
    public var problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(path: Self.path(context.codingPath + [key]), problem: .missingKey)
        case .valueNotFound(_, let context):
            self.init(path: Self.path(context.codingPath), problem: .null)
        case .typeMismatch(let type, let context):
            self.init(path: Self.path(context.codingPath), problem: .wrongType(expected: Self.name(of: type)))
        case .dataCorrupted(let context):
            if context.debugDescription == StrictKeys.unknownKey {
                self.init(path: Self.path(context.codingPath), problem: .unknownKey)
            } else if context.codingPath.isEmpty {
                self.init(path: "", problem: .notJSON)
            } else {
                self.init(path: Self.path(context.codingPath), problem: .badValue(context.debugDescription))
            }
        @unknown default:
            self.init(path: "", problem: .badValue("\(error)"))
        }
    }

    public var description: String {
        let text: String
        switch problem {
        case .notJSON: text = "not valid JSON"
        case .syntax(let offset, let message): text = "not valid JSON at byte \(offset): \(message)"
        case .unknownKey: text = "unknown key (keys are case-sensitive; a misspelt optional key would otherwise be ignored)"
        case .missingKey: text = "missing"
        case .null: text = "is null"
        case .wrongType(let expected): text = "expected \(expected)"
        case .badValue(let detail): text = detail
        }
        return path.isEmpty ? text : "\(path): \(text)"
    }

    /// `trees[3].missingtypes`: array positions in brackets, member names after dots.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type, is Float.Type: "a number"
        default:
            String(describing: type).hasPrefix("Array") ? "an array"
                : String(describing: type).hasPrefix("Dictionary") ? "an object" : "\(type)"
        }
    }
}
