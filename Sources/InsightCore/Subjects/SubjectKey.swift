/// A keyed hash of one subject reference (an account, device or counterparty ref), truncated to 128 bits.
///
/// Raw refs never leave the request: the evaluation layer turns each into a `SubjectKey` with the tenant's HMAC key
/// first, and only keys are kept in memory for velocity or written to the database.
public struct SubjectKey: Hashable, Sendable, CustomStringConvertible {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Takes the first 16 bytes of a MAC.
    public init(macBytes bytes: some Collection<UInt8>) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (offset, byte) in bytes.prefix(16).enumerated() {
            if offset < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.init(high: high, low: low)
    }

    /// 32 lowercase hex digits: how keys are stored.
    public var hex: String {
        // Written straight into the string's storage: one allocation, where two arrays and a copy made three.
        String(unsafeUninitializedCapacity: 32) { digits in
            for index in 0..<16 {
                let word = index < 8 ? high : low
                let byte = UInt8(truncatingIfNeeded: word >> UInt64(8 * (7 - index % 8)))
                digits[2 * index] = Self.hexDigit(byte >> 4)
                digits[2 * index + 1] = Self.hexDigit(byte & 0xF)
            }
            return 32
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ nibble &- 10
    }

    public init?(hex: String) {
        self.init(hexDigits: hex.utf8)
    }

    /// Parses 32 lowercase hex digits given as UTF-8 bytes (a database column's text, read in place): no copy of
    /// the digits is made, which the velocity replay at start-up does for millions of rows.
    public init?(hexDigits: some Sequence<UInt8>) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var count = 0
        for digit in hexDigits {
            guard count < 32, let value = Self.nibble(digit) else { return nil }
            if count < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
            count += 1
        }
        guard count == 32 else { return nil }
        self.init(high: high, low: low)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - 87
        default: nil
        }
    }

    public var description: String { "SubjectKey(\(hex.prefix(8))…)" }
}
