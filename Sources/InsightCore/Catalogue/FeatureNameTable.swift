/// Name-to-index lookup for the validation hot path: open addressing over FNV-1a of the UTF-8 bytes, which for
/// names of 10 to 35 bytes costs a fraction of `Dictionary<String, Int>`'s seeded SipHash. The names come from
/// the catalogue, so hash flooding by clients only lengthens probes for names that are rejected anyway.
struct FeatureNameTable: Sendable {
    private let names: [[UInt8]]
    private let slots: [Int32]
    private let mask: Int

    init(names: [String]) {
        self.names = names.map { Array($0.utf8) }
        var capacity = 8
        while capacity < names.count * 4 { capacity *= 2 }
        mask = capacity - 1
        var slots = [Int32](repeating: -1, count: capacity)
        for (index, name) in self.names.enumerated() {
            var slot = Int(truncatingIfNeeded: Self.hash(name)) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
        self.slots = slots
    }

    func index(of name: String) -> Int? {
        var name = name
        return name.withUTF8 { bytes in index(of: bytes) }
    }

    private func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
        while true {
            let candidate = Int(slots[slot])
            if candidate < 0 { return nil }
            let stored = names[candidate]
            if stored.count == bytes.count, stored.withUnsafeBufferPointer({ $0.elementsEqual(bytes) }) {
                return candidate
            }
            slot = (slot + 1) & mask
        }
    }

    private static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash ^ (hash >> 29)
    }
}
