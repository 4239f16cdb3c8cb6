import CCrypto

/// Comparisons whose running time does not depend on the content of the bytes compared.
public enum ConstantTime {
    /// True iff `a` and `b` have the same length and the same bytes. Lengths are treated as public (they are for
    /// digests and MACs of fixed size), so different lengths return false at once; equal lengths are compared
    /// with `CRYPTO_memcmp`, which reads every byte whatever it finds.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}
