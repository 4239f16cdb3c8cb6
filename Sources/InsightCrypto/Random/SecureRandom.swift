import CCrypto

/// Bytes and tokens from libcrypto's CSPRNG (`RAND_bytes`, seeded from the kernel).
public enum SecureRandom {
    /// `count` random bytes. Traps if the CSPRNG fails: no weaker value is a safe substitute for a secret.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0 && count <= Int(Int32.max), "SecureRandom.bytes: count out of range")
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
    }

    /// Fills `buffer` with random bytes; traps on failure, like `bytes(_:)`.
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        precondition(buffer.count <= Int(Int32.max), "SecureRandom.fill: count out of range")
        let status = RAND_bytes(base.assumingMemoryBound(to: UInt8.self), Int32(buffer.count))
        precondition(status == 1, "libcrypto RAND_bytes failed: \(LibCryptoErrorQueue.drainReason())")
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
