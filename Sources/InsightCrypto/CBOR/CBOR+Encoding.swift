extension CBOR {
    /// The core deterministic encoding (RFC 8949 §4.2.1): shortest arguments, definite lengths, map entries
    /// sorted by the bytewise order of their encoded keys.
    public func encoded() -> [UInt8] {
        var writer = CBORWriter()
        write(to: &writer)
        return writer.bytes
    }

    func write(to writer: inout CBORWriter) {
        switch self {
        case let .unsigned(value):
            writer.writeHead(majorType: 0, argument: value)
        case let .negative(value):
            writer.writeHead(majorType: 1, argument: value)
        case let .byteString(content):
            writer.writeByteString(content)
        case let .textString(text):
            writer.writeTextString(text)
        case let .array(items):
            writer.writeArrayHead(count: items.count)
            for item in items { item.write(to: &writer) }
        case let .map(entries):
            writer.writeMapHead(count: entries.count)
            let sorted = entries.map { (key: $0.key.encoded(), value: $0.value) }
                .sorted { $0.key.lexicographicallyPrecedes($1.key) }
            for entry in sorted {
                writer.writeEncoded(entry.key)
                entry.value.write(to: &writer)
            }
        case let .tagged(tag, item):
            writer.writeTag(tag)
            item.write(to: &writer)
        case let .bool(value):
            writer.writeBool(value)
        case .null:
            writer.writeNull()
        }
    }
}
