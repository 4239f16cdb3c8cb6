extension CBOR {
    /// Nesting deeper than this is refused so that hostile input cannot exhaust the stack.
    public static let maximumNestingDepth = 32

    /// Decodes exactly one data item that spans all of `bytes`. Accepts map keys in any order (the message's
    /// own bytes are what get verified), but refuses non-shortest arguments, indefinite lengths, floats and
    /// duplicate map keys.
    public static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBOR {
        var reader = CBORReader(bytes: bytes)
        let item = try reader.readItem(depth: 0)
        guard reader.offset == bytes.count else { throw .trailingBytes(offset: reader.offset) }
        return item
    }
}

struct CBORReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func readItem(depth: Int) throws(CBORError) -> CBOR {
        guard depth <= CBOR.maximumNestingDepth else { throw .nestingTooDeep(offset: offset) }
        let start = offset
        let initial = try readByte()
        let majorType = initial >> 5
        let additional = initial & 0x1f
        if majorType == 7 {
            switch additional {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: throw .unsupportedSimpleValue(offset: start)
            }
        }
        let argument = try readArgument(additional, start: start)
        switch majorType {
        case 0:
            return .unsigned(argument)
        case 1:
            return .negative(argument)
        case 2:
            return .byteString(try readBytes(count: argument))
        case 3:
            let content = try readBytes(count: argument)
            guard let text = String(validating: content, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
            return .textString(text)
        case 4:
            // Each item takes at least one byte, so a count beyond the remaining input is truncated input;
            // checking first keeps a forged count from reserving a huge array.
            guard argument <= UInt64(bytes.count - offset) else { throw .unexpectedEnd(offset: start) }
            var items: [CBOR] = []
            items.reserveCapacity(Int(argument))
            for _ in 0..<argument { items.append(try readItem(depth: depth + 1)) }
            return .array(items)
        case 5:
            guard argument <= UInt64(bytes.count - offset) / 2 else { throw .unexpectedEnd(offset: start) }
            var entries: [CBOR: CBOR] = [:]
            for _ in 0..<argument {
                let keyOffset = offset
                let key = try readItem(depth: depth + 1)
                let value = try readItem(depth: depth + 1)
                guard entries.updateValue(value, forKey: key) == nil else {
                    throw .duplicateMapKey(offset: keyOffset)
                }
            }
            return .map(entries)
        default:
            return .tagged(argument, try readItem(depth: depth + 1))
        }
    }

    private mutating func readByte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw .unexpectedEnd(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func readArgument(_ additional: UInt8, start: Int) throws(CBORError) -> UInt64 {
        let byteCount: Int
        switch additional {
        case 0..<24: return UInt64(additional)
        case 24: byteCount = 1
        case 25: byteCount = 2
        case 26: byteCount = 4
        case 27: byteCount = 8
        default: throw .unsupportedAdditionalInformation(offset: start)
        }
        var value: UInt64 = 0
        for _ in 0..<byteCount { value = value << 8 | UInt64(try readByte()) }
        let shortest: Bool
        switch byteCount {
        case 1: shortest = value >= 24
        case 2: shortest = value > 0xff
        case 4: shortest = value > 0xffff
        default: shortest = value > 0xffff_ffff
        }
        guard shortest else { throw .nonShortestArgument(offset: start) }
        return value
    }

    private mutating func readBytes(count: UInt64) throws(CBORError) -> [UInt8] {
        guard count <= UInt64(bytes.count - offset) else { throw .unexpectedEnd(offset: offset) }
        let end = offset + Int(count)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}
