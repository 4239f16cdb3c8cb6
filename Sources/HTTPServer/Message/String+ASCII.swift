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

    /// ASCII case-insensitive equality without allocating lowercased copies.
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var lhs = self
        var rhs = other
        return lhs.withUTF8 { a in
            rhs.withUTF8 { b in
                for index in 0..<a.count where a[index] != b[index] {
                    let lower = a[index] | 0x20
                    if lower != b[index] | 0x20 || lower < UInt8(ascii: "a") || lower > UInt8(ascii: "z") { return false }
                }
                return true
            }
        }
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
