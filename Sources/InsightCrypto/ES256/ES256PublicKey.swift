import CCrypto

/// An ECDSA P-256 public key for verifying ES256 signatures.
public struct ES256PublicKey: Sendable {
    let key: EVPKey
    /// SubjectPublicKeyInfo DER, kept because the kid and the published forms are derived from it.
    public let derRepresentation: [UInt8]

    /// From SubjectPublicKeyInfo DER (what `openssl pkey -pubout -outform DER` writes).
    public init(derRepresentation: [UInt8]) throws {
        let pointer = try derRepresentation.withNonNullBytes { bytes, count -> OpaquePointer in
            var cursor: UnsafePointer<UInt8>? = bytes
            guard let pointer = d2i_PUBKEY(nil, &cursor, count) else {
                throw CryptoError.invalidKeyEncoding(reason: LibCryptoErrorQueue.drainReason())
            }
            guard cursor == bytes + count else {
                EVP_PKEY_free(pointer)
                throw CryptoError.invalidKeyEncoding(reason: "trailing bytes after SubjectPublicKeyInfo")
            }
            return pointer
        }
        let key = EVPKey(taking: pointer)
        try key.requireP256()
        self.key = key
        // Re-encode rather than keep the input, so equal keys always have equal DER.
        self.derRepresentation = try key.subjectPublicKeyInfoDER()
    }

    /// From PEM `-----BEGIN PUBLIC KEY-----` (SubjectPublicKeyInfo).
    public init(pemRepresentation: String) throws {
        let pointer = try MemoryBIO.reading(pemRepresentation) { bio -> OpaquePointer in
            guard let pointer = PEM_read_bio_PUBKEY(bio, nil, refusePassphrase, nil) else {
                throw CryptoError.invalidKeyEncoding(reason: LibCryptoErrorQueue.drainReason())
            }
            return pointer
        }
        let key = EVPKey(taking: pointer)
        try key.requireP256()
        self.key = key
        self.derRepresentation = try key.subjectPublicKeyInfoDER()
    }

    /// PEM SubjectPublicKeyInfo (`-----BEGIN PUBLIC KEY-----`).
    public var pemRepresentation: String {
        MemoryBIO.writingInfallibly("PEM_write_bio_PUBKEY") { bio in PEM_write_bio_PUBKEY(bio, key.pointer) }
    }

    /// True iff `rawSignature` (64 bytes, `r || s`) is a valid ES256 signature of `message` under this key.
    public func isValidSignature(_ rawSignature: [UInt8], for message: [UInt8]) -> Bool {
        guard let der = try? ES256SignatureEncoding.derSignature(fromRaw: rawSignature) else { return false }
        guard let context = EVP_MD_CTX_new() else {
            LibCryptoErrorQueue.discard()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit_ex(context, nil, "SHA256", nil, nil, key.pointer, nil) == 1 else {
            LibCryptoErrorQueue.discard()
            return false
        }
        let status = message.withNonNullBytes { pointer, count in
            EVP_DigestVerify(context, der, der.count, pointer, count)
        }
        if status != 1 { LibCryptoErrorQueue.discard() }
        return status == 1
    }
}

extension ES256PublicKey: Equatable {
    public static func == (lhs: ES256PublicKey, rhs: ES256PublicKey) -> Bool {
        lhs.derRepresentation == rhs.derRepresentation
    }
}
