#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONStream

/// A parsed JSON value, so that the catalogue reader can walk a document by hand and report the exact RFC 6901
/// pointer of whatever is wrong (Codable would only say "type mismatch" somewhere).
indirect enum CatalogueJSON: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([CatalogueJSON])
    case object([String: CatalogueJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([CatalogueJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: CatalogueJSON].self))
        }
    }

    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    static func parse(_ data: Data, file: String) throws(CatalogueError) -> CatalogueJSON {
        // The syntax is read first by the reader the other configuration files use, so a mistake is placed by its
        // byte as theirs are (the decoder below says only that the text is not JSON).
        var reader = JSONReader(Array(data))
        do {
            try reader.skipValue()
            try reader.finish()
        } catch {
            throw .malformedJSON(file: file, pointer: "", detail: "not valid JSON: \(error)")
        }
        do {
            return try JSONDecoder().decode(CatalogueJSON.self, from: data)
        } catch {
            // The grammar held, so the value is what JSON allows and the decoder does not take.
            throw .malformedJSON(
                file: file, pointer: "",
                detail: "not usable JSON: it holds a number beyond the range of a double (such as 1e400) or a \\u escape of half a UTF-16 surrogate pair")
        }
    }
}
