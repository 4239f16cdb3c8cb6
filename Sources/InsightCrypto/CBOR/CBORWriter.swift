/// Appends CBOR heads and items to a byte buffer. Arguments are always written in their shortest form, as the
/// core deterministic encoding requires.
struct CBORWriter {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func writeHead(majorType: UInt8, argument: UInt64) {
        let major = majorType << 5
        switch argument {
        case 0..<24:
            bytes.append(major | UInt8(argument))
        case 24...0xff:
            bytes.append(major | 24)
            bytes.append(UInt8(argument))
        case 0x100...0xffff:
            bytes.append(major | 25)
            appendBigEndian(argument, byteCount: 2)
        case 0x1_0000...0xffff_ffff:
            bytes.append(major | 26)
            appendBigEndian(argument, byteCount: 4)
        default:
            bytes.append(major | 27)
            appendBigEndian(argument, byteCount: 8)
        }
    }

    mutating func writeInteger(_ value: Int64) {
        if value >= 0 {
            writeHead(majorType: 0, argument: UInt64(value))
        } else {
            writeHead(majorType: 1, argument: UInt64(-(value + 1)))
        }
    }

    mutating func writeByteString(_ content: some Collection<UInt8>) {
        writeHead(majorType: 2, argument: UInt64(content.count))
        bytes.append(contentsOf: content)
    }

    mutating func writeTextString(_ text: String) {
        writeHead(majorType: 3, argument: UInt64(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    mutating func writeArrayHead(count: Int) {
        writeHead(majorType: 4, argument: UInt64(count))
    }

    mutating func writeMapHead(count: Int) {
        writeHead(majorType: 5, argument: UInt64(count))
    }

    mutating func writeTag(_ tag: UInt64) {
        writeHead(majorType: 6, argument: tag)
    }

    mutating func writeBool(_ value: Bool) {
        bytes.append(value ? 0xf5 : 0xf4)
    }

    mutating func writeNull() {
        bytes.append(0xf6)
    }

    /// Appends bytes that are already a complete CBOR encoding.
    mutating func writeEncoded(_ encoded: [UInt8]) {
        bytes.append(contentsOf: encoded)
    }

    private mutating func appendBigEndian(_ value: UInt64, byteCount: Int) {
        for shift in stride(from: (byteCount - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
