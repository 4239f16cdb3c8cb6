/// Strings a decoder expects to meet often (its field names, a catalogue's feature names), which `JSONReader` hands
/// out as shared copies instead of allocating a new string each time it reads one. Swift keeps strings of up to 15
/// UTF-8 bytes inline, so only longer ones are worth keeping: on the evaluation route the member names of a feature
/// vector were a tenth of the request's allocations.
///
/// A read string equals what it would have been without the table; the table only saves the allocation.
public struct JSONKnownStrings: Sendable {
    /// Strings that fit inline are never allocated, so they are not kept.
    static let shortestKept = 16
    static let longestKept = 128

    private struct Entry: Sendable {
        var offset: Int
        var string: String
    }

    /// The UTF-8 of every kept string, one after the other.
    private let bytes: [UInt8]
    /// Sorted by length; `firstEntry[n - shortestKept] ..< firstEntry[n - shortestKept + 1]` are those of length n.
    private let entries: [Entry]
    private let firstEntry: [Int]

    public static let none = JSONKnownStrings([])

    /// Keeps each distinct ASCII string of 16 to 128 bytes; others are read as usual.
    public init(_ strings: some Sequence<String>) {
        let kept = Set(strings.filter { string in
            let count = string.utf8.count
            return count >= Self.shortestKept && count <= Self.longestKept && string.utf8.allSatisfy { $0 < 0x80 }
        }).sorted { ($0.utf8.count, $0) < ($1.utf8.count, $1) }
        var bytes: [UInt8] = []
        var entries: [Entry] = []
        for string in kept {
            entries.append(Entry(offset: bytes.count, string: string))
            bytes.append(contentsOf: string.utf8)
        }
        // `kept` is sorted by length, so each length's entries start where the shorter ones end.
        let firstEntry = (Self.shortestKept...(Self.longestKept + 1)).map { length in
            kept.prefix { $0.utf8.count < length }.count
        }
        self.bytes = bytes
        self.entries = entries
        self.firstEntry = firstEntry
    }

    public var count: Int { entries.count }

    /// The kept string whose UTF-8 is `utf8`, if there is one.
    func string(matching utf8: UnsafeBufferPointer<UInt8>) -> String? {
        let length = utf8.count
        guard length >= Self.shortestKept, length <= Self.longestKept, !entries.isEmpty else { return nil }
        let slot = length - Self.shortestKept
        var index = firstEntry[slot]
        let end = firstEntry[slot + 1]
        guard index < end else { return nil }
        return bytes.withUnsafeBufferPointer { kept in
            while index < end {
                let entry = entries[index]
                if memoryEquals(kept.baseAddress! + entry.offset, utf8.baseAddress!, length) { return entry.string }
                index += 1
            }
            return nil
        }
    }

    @inline(__always)
    private func memoryEquals(_ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            let a = UnsafeRawPointer(left + offset).loadUnaligned(as: UInt64.self)
            let b = UnsafeRawPointer(right + offset).loadUnaligned(as: UInt64.self)
            if a != b { return false }
            offset += 8
        }
        while offset < count {
            if left[offset] != right[offset] { return false }
            offset += 1
        }
        return true
    }
}
