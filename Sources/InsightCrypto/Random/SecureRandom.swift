import CCrypto

/// Bytes and tokens from libcrypto's CSPRNG (`RAND_bytes`, seeded from the kernel).
public enum SecureRandom {
    /// `count` random bytes. Traps if the CSPRNG fails: no weaker value is a safe substitute for a secret.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0 && count <= Int(Int32.max), "SecureRandom.bytes: count out of range")
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let status = RAND_bytes(buffer.baseAddress, Int32(count))
            precondition(status == 1, "libcrypto RAND_bytes failed: \(LibCryptoErrorQueue.drainReason())")
            initialized = count
        }
    }

    /// Lowercase hex of `byteCount` random bytes (the string is twice as long).
    public static func hexToken(byteCount: Int) -> String {
        Hex.encode(bytes(byteCount))
    }

    /// Unpadded base64url of `byteCount` random bytes.
    public static func base64URLToken(byteCount: Int) -> String {
        Base64URL.encode(bytes(byteCount))
    }
}
