extension String {
    /// Whether every UTF-8 byte satisfies `predicate`, read from contiguous storage (faster than the
    /// generic `utf8.allSatisfy` on the hot path).
    @inline(__always)
    func allUTF8(_ predicate: (UInt8) -> Bool) -> Bool {
        var copy = self
        return copy.withUTF8 { bytes in
            for byte in bytes where !predicate(byte) { return false }
            return true
        }
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
