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
            other.utf8.withContiguousStorageIfAvailable { b in a.elementsEqual(b, by: UInt8.equalsIgnoringASCIICase) }
        }
        if let contiguous, let answer = contiguous { return answer }
        return utf8.elementsEqual(other.utf8, by: UInt8.equalsIgnoringASCIICase)
    }
}

extension Substring {
    /// ASCII case-insensitive equality of a slice (a header value's part) without copying it into a String.
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8, by: UInt8.equalsIgnoringASCIICase)
    }
}

extension UInt8 {
    /// The one rule every case-insensitive name comparison uses: equal bytes, or the same ASCII letter in either
    /// case. Only letters fold: `[` (0x5B) and `{` (0x7B) differ by 0x20 too and must not match.
    @inline(__always)
    static func equalsIgnoringASCIICase(_ a: UInt8, _ b: UInt8) -> Bool {
        if a == b { return true }
        let lower = a | 0x20
        return lower == b | 0x20 && lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
    }
}
