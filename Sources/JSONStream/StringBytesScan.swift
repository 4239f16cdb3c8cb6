/// Finds, eight bytes at a time, where a JSON string's plain run ends: the first of its bytes that the reader or the
/// writer must look at one by one (a quote, a backslash or a control character), so runs of plain text (most of every
/// request and answer) cost a word's test per eight bytes rather than three tests per byte.
///
/// The word tests are exact as a whole: a word is "plain" only if none of its eight bytes is one of those. Which byte
/// inside a flagged word it is, the caller finds by looking at each (the tests cannot say: a borrow runs on from the
/// byte that caused it).
enum StringBytesScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether any of the word's bytes is `"` (0x22), `\` (0x5C) or below 0x20.
    @inline(__always)
    static func needsAttention(_ word: UInt64) -> Bool {
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        // (x - 0x01 each) & ~x has a byte's high bit set iff that byte is 0 (when no lower byte borrows); for
        // "below 0x20", subtract 0x20 instead: a byte at or above 0x80 keeps its high bit out through ~x.
        let isQuote = (quote &- ones) & ~quote
        let isBackslash = (backslash &- ones) & ~backslash
        let isControl = (word &- ones &* 0x20) & ~word
        return (isQuote | isBackslash | isControl) & highBits != 0
    }

    /// The offset of the first eight-byte word from `start` on that needs attention, or of the last fewer-than-eight
    /// bytes of `buffer`, whichever comes first; `sawNonASCII` is set if a byte skipped over is 0x80 or above.
    @inline(__always)
    static func endOfPlainWords(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, sawNonASCII: inout Bool) -> Int {
        guard let base = buffer.baseAddress else { return start }
        var offset = start
        var seen: UInt64 = 0
        while offset + 8 <= buffer.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
            if needsAttention(word) { break }
            seen |= word
            offset += 8
        }
        if seen & highBits != 0 { sawNonASCII = true }
        return offset
    }

    /// Whether any byte of `bytes` is `"`, `\` or below 0x20.
    @inline(__always)
    static func containsByteNeedingAttention(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        func word(at offset: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
        }
        guard bytes.count >= 8 else {
            for offset in 0..<bytes.count where base[offset] < 0x20 || base[offset] == 0x22 || base[offset] == 0x5C { return true }
            return false
        }
        var offset = 0
        while offset + 8 < bytes.count {
            if needsAttention(word(at: offset)) { return true }
            offset += 8
        }
        // The last eight bytes as one word, overlapping the words before: no byte-by-byte tail.
        return needsAttention(word(at: bytes.count - 8))
    }
}
