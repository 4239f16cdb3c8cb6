import CCrypto

/// An ECDSA P-256 private key for ES256 (ECDSA with SHA-256, RFC 7518 §3.4 and RFC 9053 §2.1).
public struct ES256PrivateKey: Sendable {
    let key: EVPKey
    /// Derived once, so that reading it cannot fail later.
    public let publicKey: ES256PublicKey

    init(key: EVPKey) throws {
        try key.requireP256()
        try key.requireMatchingPublicKey()
        self.key = key
        publicKey = try ES256PublicKey(derRepresentation: key.subjectPublicKeyInfoDER())
    }

    public static func generate() throws -> ES256PrivateKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw LibCryptoErrorQueue.error("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw LibCryptoErrorQueue.error("EVP_PKEY_keygen_init") }
        guard EVP_PKEY_CTX_set_group_name(context, "P-256") == 1 else {
            throw LibCryptoErrorQueue.error("EVP_PKEY_CTX_set_group_name")
        }
        var generated: OpaquePointer?
        guard EVP_PKEY_generate(context, &generated) == 1, let generated else {
            throw LibCryptoErrorQueue.error("EVP_PKEY_generate")
        }
        return try ES256PrivateKey(key: EVPKey(taking: generated))
    }

    /// Reads the first private key in `pemRepresentation` (PKCS#8 `PRIVATE KEY`, or SEC 1 `EC PRIVATE KEY`).
    /// Encrypted PEM is refused rather than prompting for a passphrase.
    public init(pemRepresentation: String) throws {
        let pointer = try MemoryBIO.reading(pemRepresentation) { bio -> OpaquePointer in
            guard let pointer = PEM_read_bio_PrivateKey(bio, nil, refusePassphrase, nil) else {
                throw CryptoError.invalidKeyEncoding(reason: LibCryptoErrorQueue.drainReason())
            }
            return pointer
        }
        try self.init(key: EVPKey(taking: pointer))
    }

    /// Unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`). This is the secret: keep it out of logs.
    public var pemRepresentation: String {
        MemoryBIO.writingInfallibly("PEM_write_bio_PrivateKey") { bio in
            PEM_write_bio_PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil)
        }
    }

    /// An ES256 signature of `message` as raw `r || s` (64 bytes). Builds a fresh signing context each call; for
    /// repeated signing use `ES256Signer`, which keeps its contexts.
    public func signature(for message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw LibCryptoErrorQueue.error("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit_ex(context, nil, "SHA256", nil, nil, key.pointer, nil) == 1 else {
            throw LibCryptoErrorQueue.error("EVP_DigestSignInit_ex")
        }
        var der = [UInt8](repeating: 0, count: Int(EVP_PKEY_get_size(key.pointer)))
        var length = der.count
        let status = message.withNonNullBytes { pointer, count in
            EVP_DigestSign(context, &der, &length, pointer, count)
        }
        guard status == 1 else { throw LibCryptoErrorQueue.error("EVP_DigestSign") }
        return try ES256SignatureEncoding.rawSignature(fromDER: Array(der.prefix(length)))
    }
}

extension ES256PrivateKey: CustomStringConvertible, CustomReflectable {
    public var description: String { "ES256PrivateKey(redacted)" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
