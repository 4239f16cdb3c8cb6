import InsightCrypto

/// Identifiers for evaluations and insights: lowercase UUIDs of version 7 (RFC 9562), 48 bits of Unix milliseconds
/// followed by 74 random bits.
///
/// Time-ordered on purpose: every evaluation inserts its identifier into a B-tree, and random (version 4) keys
/// dirtied a different page per insert, so each group commit wrote several pages per evaluation to the WAL. Ordered
/// keys land on the same right-hand pages, and a batch of evaluations writes a handful of pages in all. The random
/// bits keep them unguessable; the time they reveal is already in the signed response.
///
/// An evaluation's identifier ends in the hex digit 0, and the identifier of its insight at position p (0 to 7) is
/// the same with the last digit p + 1: the store keeps an evaluation and its insights in one row, found from either
/// identifier without an index of insight identifiers (schema migration 12). That leaves 70 random bits, shared by
/// the identifiers of one answer, which its reader sees together anyway.
public enum Identifier {
    /// Insights per evaluation that derived identifiers can number.
    public static let maximumDerivedInsights = 8

    /// Whether `insightID` is the identifier `insight(ofEvaluation:position:)` derives, compared byte by byte: the
    /// store asks for every insight it records, and must not build the derived identifier to answer.
    public static func isInsight(_ insightID: String, ofEvaluation evaluationID: String, position: Int) -> Bool {
        guard (0..<maximumDerivedInsights).contains(position) else { return false }
        // Compared in place: through the UTF-8 views' iterators this cost about 2,500 instructions a call, twice per
        // evaluation on the event loop. Only a string without contiguous UTF-8 (bridged, not on Linux) is copied.
        if let answer = insightID.utf8.withContiguousStorageIfAvailable({ own in
            evaluationID.utf8.withContiguousStorageIfAvailable { evaluation in
                isDerived(own, from: evaluation, position: position)
            }
        }), let answer {
            return answer
        }
        return isDerived(Array(insightID.utf8)[...], from: Array(evaluationID.utf8)[...], position: position)
    }

    private static func isDerived<Bytes: Collection<UInt8>>(_ own: Bytes, from evaluation: Bytes, position: Int) -> Bool
    where Bytes.Index == Int {
        guard own.count == 36, evaluation.count == 36 else { return false }
        let start = own.startIndex, evaluationStart = evaluation.startIndex
        for offset in 0..<35 where own[start + offset] != evaluation[evaluationStart + offset] { return false }
        return own[start + 35] == UInt8(ascii: "1") &+ UInt8(position)
    }

    /// A new evaluation identifier for `milliseconds`: random bits from `random`, the last hex digit 0.
    public static func evaluation(at milliseconds: Int64, random: RandomReserve) -> String {
        make(at: milliseconds, random: random, lastDigitZero: true)
    }

    /// The identifier of the insight at `position` (0 to 7) of the evaluation `evaluationID` made: the evaluation's,
    /// its last hex digit `position + 1`.
    public static func insight(ofEvaluation evaluationID: String, position: Int) -> String {
        precondition((0..<maximumDerivedInsights).contains(position) && evaluationID.utf8.count == 36)
        return String(unsafeUninitializedCapacity: 36) { buffer in
            _ = buffer.initialize(from: evaluationID.utf8)
            buffer[35] = UInt8(ascii: "1") &+ UInt8(position)
            return 36
        }
    }

    /// A new identifier for `milliseconds`, its random bits drawn from `random`.
    public static func make(at milliseconds: Int64, random: RandomReserve) -> String {
        make(at: milliseconds, random: random, lastDigitZero: false)
    }

    private static func make(at milliseconds: Int64, random: RandomReserve, lastDigitZero: Bool) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { bytes in
            random.fill(UnsafeMutableRawBufferPointer(bytes))
            if lastDigitZero { bytes[15] &= 0xF0 }
            let time = UInt64(max(0, milliseconds))
            for index in 0..<6 {
                bytes[index] = UInt8(truncatingIfNeeded: time >> (40 - 8 * UInt64(index)))
            }
            bytes[6] = (bytes[6] & 0x0F) | 0x70
            bytes[8] = (bytes[8] & 0x3F) | 0x80
            return format(UnsafeBufferPointer(bytes))
        }
    }

    /// The least identifier of version 7 made at `milliseconds` or later: every such identifier sorts at or
    /// above it as text (lowercase hex sorts as its value), so `id >= lowerBound(t)` selects by creation time.
    public static func lowerBound(forMilliseconds milliseconds: Int64) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { bytes in
            bytes.initialize(repeating: 0)
            let time = UInt64(max(0, milliseconds))
            for index in 0..<6 {
                bytes[index] = UInt8(truncatingIfNeeded: time >> (40 - 8 * UInt64(index)))
            }
            return format(UnsafeBufferPointer(bytes))
        }
    }

    /// Milliseconds since the Unix epoch encoded in an identifier of version 7, or nil for any other text.
    public static func milliseconds(of identifier: String) -> Int64? {
        guard isWellFormed(identifier) else { return nil }
        let bytes = Array(identifier.utf8)
        guard bytes[14] == UInt8(ascii: "7") else { return nil }
        var value: Int64 = 0
        for byte in bytes[0..<8] + bytes[9..<13] {
            value = value << 4 | Int64(hexValue(byte))
        }
        return value
    }

    /// The lowercase form the service issues and stores, for a UUID in either case (RFC 9562 section 4: input is
    /// case-insensitive); nil for any other text.
    public static func canonical(_ text: String) -> String? {
        if isWellFormed(text) { return text }
        let lowered = String(decoding: text.utf8.map { (0x41...0x46).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        return isWellFormed(lowered) ? lowered : nil
    }

    /// True for the textual shape of a lowercase UUID; a cheap filter before a lookup.
    public static func isWellFormed(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            if count == 8 || count == 13 || count == 18 || count == 23 {
                if byte != UInt8(ascii: "-") { return false }
            } else if hexValue(byte) > 15 {
                return false
            }
            count += 1
            if count > 36 { return false }
        }
        return count == 36
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ nibble &- 10
    }

    private static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        default: 255
        }
    }

    private static func format(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            var position = 0
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    buffer[position] = UInt8(ascii: "-")
                    position += 1
                }
                buffer[position] = hexDigit(byte >> 4)
                buffer[position + 1] = hexDigit(byte & 0xF)
                position += 2
            }
            return position
        }
    }
}
