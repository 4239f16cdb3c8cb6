/// A strict reader of Universal Binary JSON (Draft 12, the form XGBoost's `save_model("model.ubj")` writes, and
/// since XGBoost 2.1 the default for a file name without `.json`) into the same `JSONValue` tree the JSON importer
/// reads. Numbers keep the form the importer parses: integers as their decimal text, a float32 as the shortest text
/// that reads back to the same float32, so a `.ubj` and a `.json` of one model import to the same document.
/// Strict where a lenient reader would guess, as `JSONParser` is: a member name twice in one object, strings that
/// are not UTF-8, a NaN, and lengths that run past the end of the file are refused. An infinite float becomes the
/// word XGBoost's JSON writer puts for it (`Infinity`, `-Infinity`), so both forms of a model read alike.
struct UBJSONParser {
    typealias SyntaxError = JSONParser.SyntaxError

    private let bytes: [UInt8]
    /// Reads a NaN as the number text `NaN`, as `JSONParser.InfinityWords.xgboostAndNaN` does: only to tell why
    /// a file holding one is refused.
    private let acceptsNaN: Bool
    private var index = 0
    private var depth = 0

    private init(bytes: [UInt8], acceptsNaN: Bool) {
        self.bytes = bytes
        self.acceptsNaN = acceptsNaN
    }

    static func parse(_ bytes: [UInt8], acceptingNaN: Bool = false) throws(SyntaxError) -> JSONValue {
        var parser = UBJSONParser(bytes: bytes, acceptsNaN: acceptingNaN)
        let value = try parser.value(marker: parser.marker())
        guard parser.index == bytes.count else { throw parser.error("trailing bytes after the UBJSON value") }
        return value
    }

    private func error(_ message: String) -> SyntaxError { SyntaxError(offset: index, message: message) }

    private func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) throws(SyntaxError) -> JSONValue {
        if value.isNaN {
            if acceptsNaN { return .number("NaN") }
            throw SyntaxError(offset: index, message: "a float that is NaN", isNonFiniteNumber: true)
        }
        if value.isInfinite { return .number(value < 0 ? "-Infinity" : "Infinity") }
        return .number(value.description)
    }

    /// The next type marker, skipping no-op (`N`) markers, which may stand between values.
    private mutating func marker() throws(SyntaxError) -> UInt8 {
        while index < bytes.count, bytes[index] == UInt8(ascii: "N") { index += 1 }
        guard index < bytes.count else { throw error("unexpected end of input") }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func value(marker: UInt8) throws(SyntaxError) -> JSONValue {
        switch marker {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "Z"): return .null
        case UInt8(ascii: "T"): return .bool(true)
        case UInt8(ascii: "F"): return .bool(false)
        case UInt8(ascii: "i"), UInt8(ascii: "U"), UInt8(ascii: "I"), UInt8(ascii: "l"), UInt8(ascii: "L"):
            return .number(String(try integer(marker: marker)))
        case UInt8(ascii: "d"):
            return try number(Float(bitPattern: UInt32(truncatingIfNeeded: try bigEndian(4))))
        case UInt8(ascii: "D"):
            // XGBoost's reader casts a float64 to float32 at once (its JSON numbers are float32). Through the
            // double's shortest text, a value halfway between two float32s would be rounded twice and could land
            // on the other neighbour.
            let double = Double(bitPattern: try bigEndian(8))
            return try number(Float(double))
        case UInt8(ascii: "H"):
            let text = try string()
            guard Self.isJSONNumber(text) else { throw error("a high-precision number that is not a decimal number") }
            return .number(text)
        case UInt8(ascii: "C"):
            let start = index
            let byte = try bigEndian(1)
            guard byte < 0x80 else { throw SyntaxError(offset: start, message: "a char that is not ASCII") }
            return .string(String(UnicodeScalar(UInt8(byte))))
        case UInt8(ascii: "S"):
            return .string(try string())
        default:
            index -= 1
            throw error("unknown type marker")
        }
    }

    private mutating func bigEndian(_ count: Int) throws(SyntaxError) -> UInt64 {
        guard bytes.count - index >= count else { throw error("unexpected end of input") }
        var value: UInt64 = 0
        for byte in bytes[index..<index + count] { value = value << 8 | UInt64(byte) }
        index += count
        return value
    }

    private mutating func integer(marker: UInt8) throws(SyntaxError) -> Int64 {
        switch marker {
        case UInt8(ascii: "i"): return Int64(Int8(truncatingIfNeeded: try bigEndian(1)))
        case UInt8(ascii: "U"): return Int64(try bigEndian(1))
        case UInt8(ascii: "I"): return Int64(Int16(truncatingIfNeeded: try bigEndian(2)))
        case UInt8(ascii: "l"): return Int64(Int32(truncatingIfNeeded: try bigEndian(4)))
        case UInt8(ascii: "L"): return Int64(bitPattern: try bigEndian(8))
        default:
            index -= 1
            throw error("expected an integer type marker for a length")
        }
    }

    /// A length or count: an integer of any width, not negative, and no more than the bytes left (every element
    /// and character takes at least one), so a damaged count cannot ask for more memory than the file holds.
    private mutating func length() throws(SyntaxError) -> Int {
        let start = index
        let value = try integer(marker: marker())
        guard value >= 0, value <= Int64(bytes.count - index) else {
            throw SyntaxError(offset: start, message: "a length that is negative or runs past the end of the file")
        }
        return Int(value)
    }

    private mutating func string() throws(SyntaxError) -> String {
        let count = try length()
        let start = index
        let slice = bytes[index..<index + count]
        index += count
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw SyntaxError(offset: start, message: "string is not valid UTF-8")
        }
        return text
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        guard depth <= 512 else { throw error("nesting too deep") }
    }

    /// `$` type then `#` count, `#` count alone, or neither (then the container runs to its closing marker).
    private mutating func containerHeader() throws(SyntaxError) -> (type: UInt8?, count: Int?) {
        var type: UInt8?
        if index < bytes.count, bytes[index] == UInt8(ascii: "$") {
            index += 1
            guard index < bytes.count else { throw error("unexpected end of input") }
            type = bytes[index]
            index += 1
            guard index < bytes.count, bytes[index] == UInt8(ascii: "#") else { throw error("a '$' type without a '#' count") }
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "#") else { return (type, nil) }
        index += 1
        return (type, try length())
    }

    private mutating func array() throws(SyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        let (type, count) = try containerHeader()
        var items: [JSONValue] = []
        if let count {
            items.reserveCapacity(count)
            for _ in 0..<count {
                let next = if let type { type } else { try marker() }
                items.append(try value(marker: next))
            }
            return .array(items)
        }
        while true {
            let next = try marker()
            if next == UInt8(ascii: "]") { return .array(items) }
            items.append(try value(marker: next))
        }
    }

    private mutating func object() throws(SyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        let (type, count) = try containerHeader()
        var members: [String: JSONValue] = [:]
        func member(_ parser: inout UBJSONParser) throws(SyntaxError) {
            let nameOffset = parser.index
            let name = try parser.string()
            let next = if let type { type } else { try parser.marker() }
            let value = try parser.value(marker: next)
            guard members.updateValue(value, forKey: name) == nil else {
                throw SyntaxError(offset: nameOffset, message: "member name \(FeatureNameText.quoted(name)) appears twice in one object")
            }
        }
        if let count {
            for _ in 0..<count { try member(&self) }
            return .object(members)
        }
        while true {
            while index < bytes.count, bytes[index] == UInt8(ascii: "N") { index += 1 }
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            try member(&self)
        }
    }

    /// RFC 8259's number grammar, which UBJSON's high-precision type follows.
    static func isJSONNumber(_ text: String) -> Bool {
        guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || "+-.eE".utf8.contains($0) }),
            case .number? = try? JSONParser.parse(Array(text.utf8))
        else { return false }
        return true
    }
}
