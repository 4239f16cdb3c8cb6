/// Reads a model document from the strict parser's tree, reporting every problem as `JSONDecoder` with
/// `StrictKeys` did: the same path, the same kind, the same order (the value's type first, then the first unknown
/// member by name, then the members in the order the type lists them). Decoding the one tree the parser already
/// built is several times faster than JSONDecoder parsing the bytes again, which matters for large models and for
/// every start of the service. (The manifest, a few kilobytes, still decodes with JSONDecoder.)
///
/// Paths are built only when something is wrong: a tree holds hundreds of thousands of numbers.
struct JSONTreeReader {
    typealias Path = [JSONDocumentPreCheck.Step]

    /// One object, its members checked against the names its type declares.
    struct Object {
        let members: [String: JSONValue]
        let path: Path

        /// Refuses anything but an object, then the first member (by name) not in `known`.
        init(_ value: JSONValue, at path: Path, known: [String]) throws(JSONShapeError) {
            switch value {
            case .object(let members):
                self.members = members
                self.path = path
            case .null:
                throw JSONTreeReader.error(at: path, .null)
            default:
                throw JSONTreeReader.error(at: path, .wrongType(expected: "an object"))
            }
            if let unknown = members.keys.filter({ !known.contains($0) }).min() {
                throw JSONTreeReader.error(at: path + [.member(unknown)], .unknownKey)
            }
        }

        /// A member that must be there and not be null.
        func required<T>(_ name: String, _ read: (JSONValue, Path) throws(JSONShapeError) -> T) throws(JSONShapeError) -> T {
            guard let value = members[name] else { throw JSONTreeReader.error(at: path + [.member(name)], .missingKey) }
            if case .null = value { throw JSONTreeReader.error(at: path + [.member(name)], .null) }
            return try read(value, path + [.member(name)])
        }

        /// A member that may be absent or null; both read as nil, as `decodeIfPresent` has it.
        func optional<T>(_ name: String, _ read: (JSONValue, Path) throws(JSONShapeError) -> T) throws(JSONShapeError) -> T? {
            guard let value = members[name] else { return nil }
            if case .null = value { return nil }
            return try read(value, path + [.member(name)])
        }

        /// A required array whose items `item` reads; an item's path is made only for its error.
        func array<T>(_ name: String, _ item: (JSONValue) -> T?, refusal: (JSONValue) -> JSONShapeError.Problem) throws(JSONShapeError) -> [T] {
            try required(name) { (value, path) throws(JSONShapeError) in try JSONTreeReader.array(value, at: path, item, refusal: refusal) }
        }

        func optionalArray<T>(_ name: String, _ item: (JSONValue) -> T?, refusal: (JSONValue) -> JSONShapeError.Problem) throws(JSONShapeError) -> [T]? {
            try optional(name) { (value, path) throws(JSONShapeError) in try JSONTreeReader.array(value, at: path, item, refusal: refusal) }
        }
    }

    static func error(at path: Path, _ problem: JSONShapeError.Problem) -> JSONShapeError {
        JSONShapeError(path: JSONDocumentPreCheck.text(path), problem: problem)
    }

    /// An item that `item` cannot read is refused at its own path, as `refusal` describes it.
    static func array<T>(_ value: JSONValue, at path: Path, _ item: (JSONValue) -> T?, refusal: (JSONValue) -> JSONShapeError.Problem) throws(JSONShapeError) -> [T] {
        switch value {
        case .array(let items):
            var result: [T] = []
            result.reserveCapacity(items.count)
            for position in items.indices {
                guard let read = item(items[position]) else { throw error(at: path + [.index(position)], refusal(items[position])) }
                result.append(read)
            }
            return result
        default:
            throw error(at: path, .wrongType(expected: "an array"))
        }
    }

    /// How a value that is not `expected` is described: null is named as null.
    static func refusal(expected: JSONShapeError.Problem) -> (JSONValue) -> JSONShapeError.Problem {
        { value in if case .null = value { .null } else { expected } }
    }

    // The readers of one JSON value. A number out of range reads as nil, like a value of the wrong type; the
    // document's number check then names it (`ModelDocument(jsonData:)`).

    static let aString: JSONShapeError.Problem = .wrongType(expected: "a string")
    static let aNumber: JSONShapeError.Problem = .wrongType(expected: "a number")
    static let aBool: JSONShapeError.Problem = .wrongType(expected: "true or false")

    static func string(_ value: JSONValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    static func int(_ value: JSONValue) -> Int? {
        if case .number(let text) = value { return JSONDocumentPreCheck.wholeNumber(text) }
        return nil
    }

    static func bool(_ value: JSONValue) -> Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }

    /// A number, or one of the three words our writer puts for a non-finite double (`ModelDocument.nonFiniteStrategy`).
    /// A number beyond a double's range (`1e400`) is nil: the caller's number check names it.
    static func double(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let text):
            guard let read = Double(text), read.isFinite else { return nil }
            return read
        case .string("inf"): return .infinity
        case .string("-inf"): return -.infinity
        case .string("nan"): return .nan
        default: return nil
        }
    }

    /// A string that must be one of `Value`'s raw values; another string is named as JSONDecoder names it.
    static func enumeration<Value: RawRepresentable>(_ type: Value.Type) -> (JSONValue, Path) throws(JSONShapeError) -> Value
    where Value.RawValue == String {
        { (value, path) throws(JSONShapeError) in
            guard let read = enumerationItem(Value.self)(value) else { throw error(at: path, enumerationRefusal(Value.self)(value)) }
            return read
        }
    }

    static func enumerationItem<Value: RawRepresentable>(_ type: Value.Type) -> (JSONValue) -> Value? where Value.RawValue == String {
        { value in if case .string(let text) = value { Value(rawValue: text) } else { nil } }
    }

    static func enumerationRefusal<Value: RawRepresentable>(_ type: Value.Type) -> (JSONValue) -> JSONShapeError.Problem
    where Value.RawValue == String {
        { value in
            switch value {
            case .null: .null
            case .string(let text): .badValue("Cannot initialize \(Value.self) from invalid String value \(text)")
            default: aString
            }
        }
    }

    /// A map of strings to strings, any member names allowed.
    static func stringMap(_ value: JSONValue, at path: Path) throws(JSONShapeError) -> [String: String] {
        guard case .object(let members) = value else { throw error(at: path, .wrongType(expected: "an object")) }
        var result: [String: String] = [:]
        result.reserveCapacity(members.count)
        // By name, so the member reported is the same on every run.
        for name in members.keys.sorted() {
            switch members[name]! {
            case .string(let text): result[name] = text
            case .null: throw error(at: path + [.member(name)], .null)
            default: throw error(at: path + [.member(name)], aString)
            }
        }
        return result
    }
}
