import InsightCore
import JSONStream

/// Helpers shared by the hand-written request decoders: JSON Pointer escaping, kind names, and violations that
/// describe what was expected, never what was sent.
enum Wire {
    /// RFC 6901: '~' becomes '~0' and '/' becomes '~1'.
    static func pointer(_ parent: String, _ key: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(key.utf8.count)
        for character in key {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return parent + "/" + escaped
    }

    static func unknownField(_ pointer: String) -> ContextViolation {
        ContextViolation(pointer: pointer, code: "unknownField", detail: "is not a field of this request")
    }

    static func duplicateField(_ pointer: String) -> ContextViolation {
        ContextViolation(pointer: pointer, code: "duplicateField", detail: "appears more than once")
    }

    static func missing(_ pointer: String) -> ContextViolation {
        ContextViolation(pointer: pointer, code: "missingRequired", detail: "is required")
    }

    static func wrongType(_ pointer: String, expected: String, received: JSONValueKind) -> ContextViolation {
        ContextViolation(pointer: pointer, code: "wrongType", detail: "expected \(expected), received \(article(received))")
    }

    static func invalidValue(_ pointer: String, _ detail: String) -> ContextViolation {
        ContextViolation(pointer: pointer, code: "invalidValue", detail: detail)
    }

    static func article(_ kind: JSONValueKind) -> String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .boolean: "a boolean"
        case .null: "null"
        }
    }

    /// Reads a string of 1 to `maximumBytes` UTF-8 bytes; records a violation and returns nil otherwise.
    static func readString(
        _ reader: inout JSONReader, at pointer: String, maximumBytes: Int, violations: inout [ContextViolation]
    ) throws -> String? {
        let kind = try reader.peekKind()
        guard kind == .string else {
            violations.append(wrongType(pointer, expected: "a string", received: kind))
            try reader.skipValue()
            return nil
        }
        let text = try reader.readString()
        guard !text.isEmpty, text.utf8.count <= maximumBytes else {
            violations.append(invalidValue(pointer, "must be 1 to \(maximumBytes) bytes long"))
            return nil
        }
        return text
    }
}
