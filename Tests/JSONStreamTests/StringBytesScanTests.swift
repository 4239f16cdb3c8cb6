import Foundation
import Testing
@testable import JSONStream

/// The eight-bytes-at-a-time scan of strings against the byte-by-byte rule it replaces: a byte needs attention iff
/// it is `"`, `\` or below 0x20, wherever it sits in a word and whatever its neighbours are.
@Suite struct StringBytesScanTests {
    private static func needsAttention(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C }

    /// Every byte value in every lane, with neighbours that are plain ASCII, plain non-ASCII, or the largest and
    /// smallest bytes (which borrow or carry most if the test were wrong).
    @Test func everyByteInEveryLaneIsJudgedAsTheByteRuleDoes() {
        for filler: UInt8 in [0x61, 0xC3, 0xFF, 0x20, 0x21, 0x23, 0x5B, 0x5D, 0x80] {
            for lane in 0..<8 {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    bytes[lane] = UInt8(value)
                    let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                    let expected = bytes.contains(where: Self.needsAttention)
                    #expect(StringBytesScan.needsAttention(word) == expected, "byte \(value) in lane \(lane) among \(filler)")
                }
            }
        }
    }

    @Test func randomWordsAgreeWithTheByteRule() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200_000 {
            let word = generator.next() as UInt64
            let bytes = withUnsafeBytes(of: word.littleEndian) { Array($0) }
            #expect(StringBytesScan.needsAttention(word) == bytes.contains(where: Self.needsAttention))
        }
    }

    /// The reader finds the same end, the same error offset and the same text with a special byte at every offset of
    /// strings long enough to span several words.
    @Test func readerFindsEveryEndAndErrorWhereverItFalls() throws {
        for length in 0..<40 {
            let plain = String(repeating: "a", count: length)
            var reader = JSONReader(Array("\"\(plain)\"".utf8))
            #expect(try reader.readString() == plain)
            for position in 0..<length {
                var control = Array("\"\(plain)\"".utf8)
                control[1 + position] = 0x0A
                var controlReader = JSONReader(control)
                #expect(throws: JSONSyntaxError(.controlCharacterInString, at: 1 + position)) { try controlReader.readString() }

                var escaped = Array(plain.utf8)
                escaped.replaceSubrange(position..<(position + 1), with: Array(#"\n"#.utf8))
                var escapedReader = JSONReader([0x22] + escaped + [0x22])
                var expected = Array(plain.utf8)
                expected[position] = 0x0A
                #expect(try escapedReader.readString() == String(decoding: expected, as: UTF8.self))

                var accented = Array(plain.utf8)
                accented.replaceSubrange(position..<(position + 1), with: Array("é".utf8))
                var accentedReader = JSONReader([0x22] + accented + [0x22])
                #expect(try accentedReader.readString() == String(decoding: accented, as: UTF8.self))

                var broken = Array(plain.utf8)
                broken[position] = 0xFF
                var brokenReader = JSONReader([0x22] + broken + [0x22])
                #expect(throws: JSONSyntaxError(.invalidUnicode, at: 1 + position)) { try brokenReader.readString() }
            }
            var unterminated = JSONReader(Array("\"\(plain)".utf8))
            #expect(throws: JSONSyntaxError(.unexpectedEnd, at: 1 + length)) { try unterminated.readString() }
        }
    }

    /// The writer escapes a special byte at every offset of a long string as it does one alone.
    @Test func writerEscapesWhereverTheByteFalls() {
        for length in 1..<40 {
            for position in 0..<length {
                for special in ["\"", "\\", "\n", "\u{01}"] {
                    var text = String(repeating: "b", count: length)
                    let index = text.index(text.startIndex, offsetBy: position)
                    text.replaceSubrange(index...index, with: special)
                    var writer = JSONWriter()
                    writer.string(text)
                    let decoded = try? JSONSerialization.jsonObject(with: Data(writer.bytes), options: .fragmentsAllowed) as? String
                    #expect(decoded == text, "\(special.debugDescription) at \(position) of \(length)")
                }
            }
        }
    }
}
