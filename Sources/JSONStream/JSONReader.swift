/// A strict pull reader over one JSON document (RFC 8259): no trailing commas, no leading zeros, no NaN or
/// comments, valid UTF-8 with paired surrogates, no control characters in strings, bounded nesting.
///
/// Decoders for a known request shape drive it directly, so a request is checked and mapped in one pass without
/// building an intermediate tree (JSON decoding is the largest per-request cost of the small-body routes).
public struct JSONReader: ~Copyable {
    @usableFromInline let bytes: [UInt8]
    @usableFromInline var index: Int
    @usableFromInline var depth: Int
    public let maximumDepth: Int
    /// Strings read as shared copies rather than new allocations.
    let knownStrings: JSONKnownStrings

    public init(_ bytes: [UInt8], maximumDepth: Int = 32, knownStrings: JSONKnownStrings = .none) {
        self.bytes = bytes
        self.index = 0
        self.depth = 0
        self.maximumDepth = maximumDepth
        self.knownStrings = knownStrings
    }

    /// Offset of the next unread byte.
    public var offset: Int { index }

    // MARK: Structure

    /// The kind of the next value (after whitespace), without consuming it.
    public mutating func peekKind() throws(JSONSyntaxError) -> JSONValueKind {
        skipWhitespace()
        guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        // A literal is checked whole: `tru` or `nope` is no boolean or null, and a caller that looks at the kind
        // before reading the value (to say "expected an object") must hear that the text is not JSON.
        case UInt8(ascii: "t"):
            try checkLiteral("true")
            return .boolean
        case UInt8(ascii: "f"):
            try checkLiteral("false")
            return .boolean
        case UInt8(ascii: "n"):
            try checkLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw JSONSyntaxError(.unexpectedCharacter, at: index)
        }
    }

    /// Reads an object, calling `body` once per member with its key; `body` must consume the member's value.
    public mutating func readObject(_ body: (String, inout JSONReader) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        try enter()
        skipWhitespace()
        if try peekByte() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            guard try peekByte() == UInt8(ascii: "\"") else { throw JSONSyntaxError(.unexpectedCharacter, at: index) }
            let key = try readString()
            try expect(UInt8(ascii: ":"))
            try body(key, &self)
            skipWhitespace()
            let next = try peekByte()
            index += 1
            if next == UInt8(ascii: ",") { continue }
            if next == UInt8(ascii: "}") { break }
            throw JSONSyntaxError(.unexpectedCharacter, at: index - 1)
        }
        depth -= 1
    }

    /// Reads an array, calling `body` with each element's index; `body` must consume the element.
    public mutating func readArray(_ body: (Int, inout JSONReader) throws -> Void) throws {
        try expect(UInt8(ascii: "["))
        try enter()
        skipWhitespace()
        if try peekByte() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        var position = 0
        while true {
            try body(position, &self)
            position += 1
            skipWhitespace()
            let next = try peekByte()
            index += 1
            if next == UInt8(ascii: ",") { continue }
            if next == UInt8(ascii: "]") { break }
            throw JSONSyntaxError(.unexpectedCharacter, at: index - 1)
        }
        depth -= 1
    }

    /// Checks that nothing but whitespace follows the top-level value.
    public mutating func finish() throws(JSONSyntaxError) {
        skipWhitespace()
        if index != bytes.count { throw JSONSyntaxError(.trailingContent, at: index) }
    }

    /// Consumes one value of any kind, checking its syntax.
    public mutating func skipValue() throws {
        switch try peekKind() {
        case .object: try readObject { _, reader in try reader.skipValue() }
        case .array: try readArray { _, reader in try reader.skipValue() }
        case .string: _ = try readString()
        case .number: _ = try readNumber()
        case .boolean: _ = try readBool()
        case .null: try readNull()
        }
    }

    // MARK: Scalars

    public mutating func readBool() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        if matchLiteral("true") { return true }
        if matchLiteral("false") { return false }
        throw JSONSyntaxError(index < bytes.count ? .typeMismatch : .unexpectedEnd, at: index)
    }

    public mutating func readNull() throws(JSONSyntaxError) {
        skipWhitespace()
        if !matchLiteral("null") { throw JSONSyntaxError(index < bytes.count ? .typeMismatch : .unexpectedEnd, at: index) }
    }

    /// Reads a number in the RFC 8259 grammar. Magnitudes beyond Double overflow to infinity, which callers treat as
    /// out of range.
    public mutating func readNumber() throws(JSONSyntaxError) -> Double {
        skipWhitespace()
        let start = index
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: index) }
        var mantissa: UInt64 = 0
        var digits = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw JSONSyntaxError(.invalidNumber, at: start) }
            digits = 1
        } else if isDigit(bytes[index]) {
            while index < bytes.count, isDigit(bytes[index]) {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 48) }
                digits += 1
                index += 1
            }
        } else {
            throw JSONSyntaxError(.invalidNumber, at: start)
        }
        var exponent = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 48) }
                digits += 1
                index += 1
            }
            if index == fractionStart { throw JSONSyntaxError(.invalidNumber, at: start) }
            exponent = fractionStart - index
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let exponentStart = index
            var written = 0
            while index < bytes.count, isDigit(bytes[index]) {
                if written < 100_000 { written = written * 10 + Int(bytes[index] &- 48) }
                index += 1
            }
            if index == exponentStart { throw JSONSyntaxError(.invalidNumber, at: start) }
            exponent += exponentNegative ? -written : written
        }
        // Clinger's fast path: a mantissa of up to 15 digits and a power of ten up to 1e22 are both exact in a
        // Double, so one multiplication or division rounds correctly, as the full conversion would. Feature
        // vectors are mostly such numbers; the rest go through the standard library.
        if digits <= 15 && exponent >= -22 && exponent <= 22 {
            var value = Double(mantissa)
            if exponent < 0 { value /= Self.powersOfTen[-exponent] } else if exponent > 0 { value *= Self.powersOfTen[exponent] }
            return negative ? -value : value
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw JSONSyntaxError(.invalidNumber, at: start) }
        return value
    }

    /// Reads a string, decoding escapes; invalid UTF-8, unpaired surrogate escapes and raw control characters are
    /// errors.
    public mutating func readString() throws(JSONSyntaxError) -> String {
        skipWhitespace()
        guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: index) }
        guard bytes[index] == UInt8(ascii: "\"") else { throw JSONSyntaxError(.typeMismatch, at: index) }
        index += 1
        let start = index
        // Fast path: no escapes. Whole words first, then the word that ends the run byte by byte.
        var sawNonASCII = false
        index = bytes.withUnsafeBufferPointer { buffer in
            StringBytesScan.endOfPlainWords(in: buffer, from: index, sawNonASCII: &sawNonASCII)
        }
        var highBits: UInt8 = sawNonASCII ? 0x80 : 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try string(start..<index, isASCII: highBits < 0x80)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw JSONSyntaxError(.controlCharacterInString, at: index) }
            highBits |= byte
            index += 1
        }
        guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: index) }
        return try readEscapedString(from: start)
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }  // exact: every power up to 1e22 is representable
        return value
    }

    /// ASCII needs no validation, and copying it skips the generic validating initialiser, which looked up type
    /// metadata at run time for every string (2% of the evaluation route's CPU).
    private func string(_ range: Range<Int>, isASCII: Bool) throws(JSONSyntaxError) -> String {
        if isASCII {
            return bytes.withUnsafeBufferPointer { all in
                if let known = knownStrings.string(matching: UnsafeBufferPointer(rebasing: all[range])) { return known }
                return String(unsafeUninitializedCapacity: range.count) { target in
                    _ = target.initialize(fromContentsOf: all[range])
                    return range.count
                }
            }
        }
        guard let text = String(validating: bytes[range], as: UTF8.self) else {
            throw JSONSyntaxError(.invalidUnicode, at: offsetOfInvalidUTF8(in: range))
        }
        return text
    }

    /// Where the first ill-formed UTF-8 sequence in `range` starts, so an error points at the byte, not at the
    /// string. Only called once the string is known to be invalid. Escapes are ASCII, so the raw bytes of an
    /// escaped string are as valid as its decoded text.
    func offsetOfInvalidUTF8(in range: Range<Int>) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[range].makeIterator()
        var offset = range.lowerBound
        while case .valid(let encoded) = parser.parseScalar(from: &iterator) {
            offset += encoded.count
        }
        return offset
    }

    private mutating func readEscapedString(from start: Int) throws(JSONSyntaxError) -> String {
        var scalars: [UInt8] = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                guard let text = String(validating: scalars, as: UTF8.self) else {
                    throw JSONSyntaxError(.invalidUnicode, at: offsetOfInvalidUTF8(in: start..<(index - 1)))
                }
                return text
            }
            if byte < 0x20 { throw JSONSyntaxError(.controlCharacterInString, at: index) }
            if byte != UInt8(ascii: "\\") {
                scalars.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: index) }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(0x22)
            case UInt8(ascii: "\\"): scalars.append(0x5C)
            case UInt8(ascii: "/"): scalars.append(0x2F)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try readHexQuad()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw JSONSyntaxError(.unpairedSurrogate, at: index - 6)
                    }
                    index += 2
                    let low = try readHexQuad()
                    guard (0xDC00...0xDFFF).contains(low) else { throw JSONSyntaxError(.unpairedSurrogate, at: index - 12) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw JSONSyntaxError(.unpairedSurrogate, at: index - 6)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw JSONSyntaxError(.invalidUnicode, at: index) }
                scalars.append(contentsOf: UTF8.encode(unicode)!)
            default:
                throw JSONSyntaxError(.invalidEscape, at: index - 1)
            }
        }
        throw JSONSyntaxError(.unexpectedEnd, at: index)
    }

    mutating func readHexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: index) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - 55
            default: throw JSONSyntaxError(.invalidEscape, at: index)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    // MARK: Helpers

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- 48 < 10 }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func peekByte() throws(JSONSyntaxError) -> UInt8 {
        guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: index) }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8) throws(JSONSyntaxError) {
        skipWhitespace()
        guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: index) }
        guard bytes[index] == byte else { throw JSONSyntaxError(.unexpectedCharacter, at: index) }
        index += 1
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > maximumDepth { throw JSONSyntaxError(.tooDeep, at: index) }
    }

    /// Throws unless `literal` is at `index`, without consuming it.
    private func checkLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        let mismatch: Int? = literal.withUTF8Buffer { expected in
            var offset = 0
            while offset < count {
                guard index + offset < bytes.count, bytes[index + offset] == expected[offset] else { return offset }
                offset += 1
            }
            return nil
        }
        guard let mismatch else { return }
        let at = index + mismatch
        throw JSONSyntaxError(at < bytes.count ? .unexpectedCharacter : .unexpectedEnd, at: at)
    }

    private mutating func matchLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            var offset = 0
            while offset < count {
                if bytes[index + offset] != expected[offset] { return false }
                offset += 1
            }
            return true
        }
        if matches { index += count }
        return matches
    }
}
