#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONStream

/// A parsed JSON value, so that the catalogue reader can walk a document by hand and report the exact RFC 6901
/// pointer of whatever is wrong (Codable would only say "type mismatch" somewhere).
indirect enum CatalogueJSON: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([CatalogueJSON])
    case object([String: CatalogueJSON])

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
        // Read by the reader the other configuration files use, so a mistake is placed by its byte as theirs are,
        // and a member given twice is refused as theirs is: Foundation's decoder kept the first copy without a word,
        // and an override appended to a feature's entry was ignored (configuration probe, 7 December).
        var reader = JSONReader(Array(data))
        do {
            let value = try read(&reader, at: "", file: file)
            try reader.finish()
            return value
        } catch let error as CatalogueError {
            throw error
        } catch {
            throw .malformedJSON(file: file, pointer: "", detail: "not valid JSON: \(error)")
        }
    }

    private static func read(_ reader: inout JSONReader, at pointer: String, file: String) throws -> CatalogueJSON {
        switch try reader.peekKind() {
        case .null:
            try reader.readNull()
            return .null
        case .boolean:
            return .bool(try reader.readBool())
        case .number:
            let number = try reader.readNumber()
            guard number.isFinite else {
                throw CatalogueError.malformedJSON(file: file, pointer: pointer, detail: "a number beyond the range of a double (such as 1e400)")
            }
            return .number(number)
        case .string:
            return .string(try reader.readString())
        case .array:
            var items: [CatalogueJSON] = []
            try reader.readArray { index, element in items.append(try read(&element, at: pointer + "/\(index)", file: file)) }
            return .array(items)
        case .object:
            var members: [String: CatalogueJSON] = [:]
            try reader.readObject(eachMemberOnce: {
                CatalogueError.malformedJSON(file: file, pointer: pointer + "/" + JSONPointer.escape($0), detail: "appears more than once")
            }) { name, member in
                members[name] = try read(&member, at: pointer + "/" + JSONPointer.escape(name), file: file)
            }
            return .object(members)
        }
    }
}
