extension String {
    /// Whether every UTF-8 byte satisfies `predicate`, read from contiguous storage (faster than the
    /// generic `utf8.allSatisfy` on the hot path).
    @inline(__always)
    func allUTF8(_ predicate: (UInt8) -> Bool) -> Bool {
        let contiguous = utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where !predicate(byte) { return false }
            return true
        }
        return contiguous ?? utf8.allSatisfy(predicate)
    }

    /// ASCII case-insensitive equality without allocating lowercased copies. Read in place from contiguous
    /// storage: copying the strings first (for `withUTF8`) cost a retain and a release of each per call, and
    /// every header lookup makes this call once per field.
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let contiguous = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in Self.equalIgnoringASCIICase(a, b) }
        }
        if let contiguous, let answer = contiguous { return answer }
        for (a, b) in zip(utf8, other.utf8) where a != b {
            let lower = a | 0x20
            if lower != b | 0x20 || lower < UInt8(ascii: "a") || lower > UInt8(ascii: "z") { return false }
        }
        return true
    }

    @inline(__always)
    private static func equalIgnoringASCIICase(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<a.count where a[index] != b[index] {
            let lower = a[index] | 0x20
            if lower != b[index] | 0x20 || lower < UInt8(ascii: "a") || lower > UInt8(ascii: "z") { return false }
        }
        return true
    }
}

extension Substring {
    /// ASCII case-insensitive equality of a slice (a header value's part) without copying it into a String.
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        for (a, b) in zip(utf8, other.utf8) where a != b {
            let lower = a | 0x20
            if lower != b | 0x20 || lower < UInt8(ascii: "a") || lower > UInt8(ascii: "z") { return false }
        }
        return true
    }
}
