import CCrypto

/// SHA-256 through libcrypto, with the algorithm fetched once (see `FetchedAlgorithms`).
public enum SHA256 {
    public static let byteCount = 32

    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        bytes.withNonNullBytes { pointer, count in
            [UInt8](unsafeUninitializedCapacity: byteCount) { digest, initialized in
                var length: UInt32 = 0
                let status = EVP_Digest(
                    pointer, count, digest.baseAddress, &length, FetchedAlgorithms.sha256.pointer, nil)
                // Only allocation failure makes a one-shot digest fail; there is no meaningful recovery.
                precondition(status == 1 && length == UInt32(byteCount),
                             "libcrypto EVP_Digest failed: \(LibCryptoErrorQueue.drainReason())")
                initialized = byteCount
            }
        }
    }

    /// Lowercase hex of the digest (64 characters).
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        Hex.encode(hash(bytes))
    }
}
