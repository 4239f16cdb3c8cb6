import CCrypto

/// Signs with one ES256 key, reusing libcrypto contexts between signatures (creating them per signature is a
/// measurable share of a 20-odd microsecond signature). Safe to call from several threads at once.
public final class ES256Signer: Sendable {
    public let privateKey: ES256PrivateKey
    private let contexts: SigningContextPool
    private let maximumSignatureLength: Int

    public init(privateKey: ES256PrivateKey) {
        self.privateKey = privateKey
        contexts = SigningContextPool(key: privateKey.key)
        maximumSignatureLength = Int(EVP_PKEY_get_size(privateKey.key.pointer))
    }

    /// The ES256 signature of `message` (SHA-256, then ECDSA P-256) as raw `r || s`, 64 bytes.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        try contexts.withContext { context in
            // Digest and DER signature in temporary storage: only the raw signature returned is allocated.
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SHA256.byteCount + maximumSignatureLength) { scratch in
                let digest = scratch.baseAddress!
                let der = digest + SHA256.byteCount
                var digestLength: UInt32 = 0
                let hashed = message.withNonNullBytes { pointer, count in
                    EVP_DigestInit_ex(context.digest, FetchedAlgorithms.sha256.pointer, nil) == 1
                        && EVP_DigestUpdate(context.digest, pointer, count) == 1
                        && EVP_DigestFinal_ex(context.digest, digest, &digestLength) == 1
                }
                guard hashed, digestLength == UInt32(SHA256.byteCount) else {
                    throw LibCryptoErrorQueue.error("EVP_Digest")
                }
                var derLength = maximumSignatureLength
                guard EVP_PKEY_sign(context.signing, der, &derLength, digest, SHA256.byteCount) == 1 else {
                    throw LibCryptoErrorQueue.error("EVP_PKEY_sign")
                }
                return try ES256SignatureEncoding.rawSignature(fromSignerDER: UnsafeBufferPointer(start: der, count: derLength))
            }
        }
    }
}
