import Testing
@testable import JSONStream

/// Reads a whole document into a neutral tree, so tests can compare what the reader understood.
private indirect enum Value: Equatable {
    case object([(String, Value)])
    case array([Value])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a.bitPattern == b.bitPattern
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }
}

private func read(_ reader: inout JSONReader) throws -> Value {
    switch try reader.peekKind() {
    case .object:
        var members: [(String, Value)] = []
        try reader.readObject { key, reader in members.append((key, try read(&reader))) }
        return .object(members)
    case .array:
        var elements: [Value] = []
        try reader.readArray { _, reader in elements.append(try read(&reader)) }
        return .array(elements)
    case .string: return .string(try reader.readString())
    case .number: return .number(try reader.readNumber())
    case .boolean: return .bool(try reader.readBool())
    case .null:
        try reader.readNull()
        return .null
    }
}

private func parse(_ text: String) throws -> Value {
    var reader = JSONReader(Array(text.utf8))
    let value = try read(&reader)
    try reader.finish()
    return value
}

private func parseBytes(_ bytes: [UInt8]) throws -> Value {
    var reader = JSONReader(bytes)
    let value = try read(&reader)
    try reader.finish()
    return value
}

@Suite struct JSONReaderTests {
    @Test func readsNestedDocument() throws {
        let value = try parse(#" { "a" : [1, -2.5, 3e2, true, false, null, "x"], "b": {} , "c": [] } "#)
        #expect(value == .object([
            ("a", .array([.number(1), .number(-2.5), .number(300), .bool(true), .bool(false), .null, .string("x")])),
            ("b", .object([])),
            ("c", .array([])),
        ]))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\u{8}\u{c}\n\r\té😀"))
    }

    @Test(arguments: [
        "[1,]", "{\"a\":1,}", "01", "-", "1.", ".5", "1e", "+1", "NaN", "Infinity", "[1 2]", "{\"a\" 1}", "{a:1}",
        "'x'", "tru", "nul", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "[", "{",
        "\"abc", "1 2", "// c\n1", "[1]]", "",
    ])
    func rejectsMalformedDocument(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try parse(text) }
    }

    /// RFC 8259 §8.2 allows `\ud800` alone in its grammar; it is refused with its own reason, at the escape, so a
    /// decoder can say which member held it rather than call the whole body malformed.
    @Test func namesAnUnpairedSurrogateEscapeApartFromBrokenUTF8() {
        #expect(throws: JSONSyntaxError(.unpairedSurrogate, at: 3)) { try parse(#""ab\ud800""#) }
        #expect(throws: JSONSyntaxError(.unpairedSurrogate, at: 1)) { try parse(#""\udc00x""#) }
        #expect(throws: JSONSyntaxError(.unpairedSurrogate, at: 2)) { try parse(#""a\ud83d\u0041""#) }
        #expect(throws: JSONSyntaxError(.invalidUnicode, at: 1)) { try parseBytes([0x22, 0xED, 0xA0, 0x80, 0x22]) }
    }

    /// The kind of a value is only told once its literal is whole: `tru` is no boolean.
    @Test func peeksTheKindOfALiteralOnlyWhenItIsWhole() throws {
        for (text, kind) in [("true", JSONValueKind.boolean), ("false", .boolean), ("null", .null), (" null,", .null)] {
            var reader = JSONReader(Array(text.utf8))
            #expect(try reader.peekKind() == kind, "\(text)")
        }
        for (text, error) in [("tru", JSONSyntaxError(.unexpectedEnd, at: 3)), ("nope", JSONSyntaxError(.unexpectedCharacter, at: 1)),
                              ("fals", JSONSyntaxError(.unexpectedEnd, at: 4)), ("trUe", JSONSyntaxError(.unexpectedCharacter, at: 2))] {
            var reader = JSONReader(Array(text.utf8))
            #expect(throws: error, "\(text)") { try reader.peekKind() }
        }
    }

    @Test func rejectsRawControlCharacterInString() {
        #expect(throws: JSONSyntaxError(.controlCharacterInString, at: 2)) { try parseBytes([0x22, 0x61, 0x0A, 0x22]) }
    }

    @Test func rejectsInvalidUTF8InString() {
        #expect(throws: JSONSyntaxError.self) { try parseBytes([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try parseBytes([0x22, 0xED, 0xA0, 0x80, 0x22]) }  // encoded surrogate
        #expect(throws: JSONSyntaxError.self) { try parseBytes([0x22, 0x5C, 0x6E, 0xFF, 0x22]) }  // after an escape
    }

    /// The offset is the ill-formed sequence's first byte, not the string's, with or without escapes before it.
    @Test func pointsAtTheFirstInvalidUTF8Byte() {
        #expect(throws: JSONSyntaxError(.invalidUnicode, at: 5)) { try parseBytes([0x22, 0x61, 0xC3, 0xA9, 0x62, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONSyntaxError(.invalidUnicode, at: 3)) { try parseBytes([0x22, 0x5C, 0x6E, 0xFF, 0x22]) }
        #expect(throws: JSONSyntaxError(.invalidUnicode, at: 9)) { try parseBytes(Array(#"{"a": "é"#.utf8) + [0xE2, 0x82, 0x22, 0x7D]) }
    }

    @Test func boundsNestingDepth() {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(throws: JSONSyntaxError.self) { try parse(deep) }
        let fine = String(repeating: "[", count: 30) + String(repeating: "]", count: 30)
        #expect(throws: Never.self) { try parse(fine) }
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("123456789012345", 123456789012345.0), ("1234567890123456789", 1234567890123456789.0),
        ("0.1", 0.1), ("1e-7", 1e-7), ("2.5E+3", 2500.0), ("-1.7976931348623157e308", -1.7976931348623157e308),
    ])
    func readsNumbersExactly(_ text: String, _ expected: Double) throws {
        #expect(try parse(text) == .number(expected))
    }

    /// The reader's fast path for short decimals must round exactly as the standard library's full conversion.
    @Test func shortDecimalsRoundAsTheStandardLibraryDoes() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let integer = UInt64.random(in: 0..<1_000_000, using: &generator)
            let fraction = UInt64.random(in: 0..<1_000_000_000, using: &generator)
            let places = Int.random(in: 1...9, using: &generator)
            var text = "\(integer)." + String(String(fraction).suffix(places))
            if Bool.random(using: &generator) { text += "e" + String(Int.random(in: -30...30, using: &generator)) }
            if Bool.random(using: &generator) { text = "-" + text }
            #expect(try parse(text) == .number(Double(text)!), "\(text)")
        }
        for text in ["0.30000000000000004", "9007199254740993", "1.5e-22", "4.35e22", "123.456e-5", "1e22", "1e23", "0.000001"] {
            #expect(try parse(text) == .number(Double(text)!), "\(text)")
        }
    }

    @Test func overflowingNumberBecomesInfinity() throws {
        #expect(try parse("1e400") == .number(.infinity))
    }

    @Test func errorsNeverQuoteContent() {
        do {
            _ = try parse("{\"secret\": 987654.321,}")
            Issue.record("expected an error")
        } catch {
            #expect(!String(describing: error).contains("987654"))
            #expect(!String(describing: error).contains("secret"))
        }
    }
}

@Suite struct JSONWriterTests {
    @Test func writesDeterministicObject() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("a", 1)
        writer.member("b", "x\"y\n\u{1}")
        writer.member("c", 0.5)
        writer.member("d", true)
        writer.member("e", nil as String?)
        writer.key("f")
        writer.beginArray()
        writer.int(-12)
        writer.double(3)
        writer.double(.nan)
        writer.endArray()
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a":1,"b":"x\"y\n\u0001","c":0.5,"d":true,"e":null,"f":[-12,3,null]}"#)
    }

    /// Strings come out as RFC 8785 (JCS) writes them (ECMAScript's JSON.stringify): the short escapes for \b \t \n
    /// \f \r, lowercase `\u00xx` for the other controls, and DEL and everything above it unescaped.
    @Test func escapesStringsAsJCSDoes() {
        var all = ""
        for value in 0..<0x20 { all.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
        all += "\"\\/\u{7F}é\u{2028}😀"
        var writer = JSONWriter()
        writer.string(all)
        let expected = #""\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
            + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f"#
            + #"\"\\/\#u{7F}é\#u{2028}😀""#
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }

    @Test func roundTripsThroughReader() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("π", 3.141592653589793)
        writer.member("big", 1e300)
        writer.member("text", "é😀\\")
        writer.endObject()
        #expect(try parseBytes(writer.bytes) == .object([("π", .number(3.141592653589793)), ("big", .number(1e300)), ("text", .string("é😀\\"))]))
    }
}
