/// A small strict JSON parser (RFC 8259) used by the XGBoost importer. FoundationEssentials has no
/// JSONSerialization, and JSONDecoder would round numbers through Double before we could read them as float32.
/// Strict where a lenient reader would guess: a member name twice in one object (which one is the model?), bytes
/// that are not UTF-8, and unpaired surrogate escapes are refused.
struct JSONParser {
    /// XGBoost's own writer puts `Infinity` and `-Infinity` for an infinite float (a split threshold, where a
    /// feature's values reach float32's limit) and its reader takes them back; the importer accepts these two words
    /// as numbers, and every field that must be finite checks it. `NaN` stays refused: no model value may be one.
    enum InfinityWords {
        case refused
        case xgboost
        /// `xgboost`, and `NaN` read as the number text `NaN`. Only for telling why a file holding NaN is refused:
        /// XGBoost before 3.0 writes NaN in the split condition of a categorical split and in a vector leaf's node,
        /// and "categorical splits are not supported" says more than "NaN is not a JSON number".
        case xgboostAndNaN
    }

    struct SyntaxError: Error, Sendable {
        var offset: Int
        var message: String
        /// The file holds a non-finite number where it is refused (`NaN`, `inf` in JSON; a NaN float in UBJSON).
        var isNonFiniteNumber = false
    }

    /// Valid only during `parse`. A buffer rather than the array: reading an array held in a struct retains and
    /// releases it at every byte in an unoptimised build, which made loading the shipped models the largest cost of
    /// the debug and sanitizer test runs. A buffer's subscript is checked only in debug builds, so every read here
    /// is after a comparison with `bytes.count`; the fuzz targets (debug, ASan) hold the parser to that.
    private let bytes: UnsafeBufferPointer<UInt8>
    private let infinityWords: InfinityWords
    private var index = 0
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, infinityWords: InfinityWords) {
        self.bytes = bytes
        self.infinityWords = infinityWords
    }

    static func parse(_ bytes: [UInt8], infinityWords: InfinityWords = .refused) throws(SyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(SyntaxError) -> JSONValue in try parse(buffer, infinityWords: infinityWords) }
    }

    /// Byte offsets in errors count from the buffer's start.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, infinityWords: InfinityWords = .refused) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: buffer, infinityWords: infinityWords)
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw parser.error("trailing characters after the JSON value") }
        return value
    }

    private func error(_ message: String) -> SyntaxError { SyntaxError(offset: index, message: message) }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default:
            if let word = infinityWord(at: index) {
                index += word.utf8.count
                return .number(word)
            }
            guard let word = nonFiniteWord(at: index) else { throw error("unexpected character") }
            throw nonFiniteError(word)
        }
    }

    /// Some writers put NaN or Infinity for a non-finite float; JSON has no such numbers, and saying so beats
    /// "unexpected character" for a model whose training went wrong.
    private func nonFiniteWord(at position: Int) -> String? {
        for word in ["Infinity", "NaN", "inf", "nan", "Inf"] where bytes[position...].starts(with: word.utf8) {
            return word
        }
        return nil
    }

    /// `Infinity` where XGBoost's words are accepted (and `NaN` where asked for), else nil.
    private func infinityWord(at position: Int) -> String? {
        guard infinityWords != .refused else { return nil }
        if bytes[position...].starts(with: "Infinity".utf8) { return "Infinity" }
        if infinityWords == .xgboostAndNaN, bytes[position...].starts(with: "NaN".utf8) { return "NaN" }
        return nil
    }

    private func nonFiniteError(_ word: String) -> SyntaxError {
        SyntaxError(
            offset: index,
            message: "'\(word)' is not a JSON number (JSON has no NaN or infinity): the model holds a value that is not finite",
            isNonFiniteNumber: true)
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        guard depth <= 512 else { throw error("nesting too deep") }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let nameOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            guard members.updateValue(try parseValue(), forKey: key) == nil else {
                throw SyntaxError(offset: nameOffset, message: "member name \(FeatureNameText.quoted(key)) appears twice in one object")
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("expected ',' or ']'")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of input") }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { throw error("invalid literal") }
        index += count
    }

    /// The four hex digits of a `\u` escape (digits only: `UInt32(_:radix:)` would take a sign too).
    private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var code: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape")
            }
            code = code << 4 | UInt32(digit)
        }
        index += 4
        return code
    }

    private mutating func parseNumber() throws(SyntaxError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
            // Most negative numbers have a digit next; only something else needs the look at words.
            if index < bytes.count, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                if let word = infinityWord(at: index) {
                    index += word.utf8.count
                    return "-" + word
                }
                if let word = nonFiniteWord(at: index) { throw nonFiniteError("-" + word) }
            }
        }
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index]) {
                parser.index += 1
            }
            return parser.index - from
        }
        guard digits(&self) > 0 else { throw error("invalid number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        let start = index
        index += 1
        var scalars: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: scalars, as: UTF8.self) else {
                    throw SyntaxError(offset: start, message: "string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw error("unexpected end of input") }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hexQuad()
                    if (0xD800..<0xDC00).contains(code) {
                        // A name outside the Basic Multilingual Plane (an emoji, say) is escaped as a pair.
                        guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate in \\u escape") }
                        index += 2
                        let low = try hexQuad()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("unpaired surrogate in \\u escape") }
                    scalars.append(contentsOf: String(Character(scalar)).utf8)
                default: throw error("invalid escape")
                }
            case 0..<0x20:
                throw error("control character in string")
            default:
                scalars.append(byte)
            }
        }
        throw error("unterminated string")
    }
}
