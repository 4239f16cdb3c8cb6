import CCrypto
import Synchronization

/// A digest context and a signing context bound to one key, used by a single caller at a time (the pool hands each
/// out to one caller and takes it back). The `EVP_PKEY_CTX` is initialised for signing once; `EVP_PKEY_sign` can
/// then be called on it repeatedly, which saves the provider look-up and allocations `EVP_DigestSignInit` makes.
final class SigningContext: @unchecked Sendable {
    let digest: OpaquePointer
    let signing: OpaquePointer

    init(key: EVPKey) throws {
        guard let digest = EVP_MD_CTX_new() else { throw LibCryptoErrorQueue.error("EVP_MD_CTX_new") }
        guard let signing = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            EVP_MD_CTX_free(digest)
            throw LibCryptoErrorQueue.error("EVP_PKEY_CTX_new_from_pkey")
        }
        self.digest = digest
        self.signing = signing
        guard EVP_PKEY_sign_init(signing) == 1 else { throw LibCryptoErrorQueue.error("EVP_PKEY_sign_init") }
        // Declaring the digest makes libcrypto check that what we pass is a SHA-256 digest in length.
        guard EVP_PKEY_CTX_set_signature_md(signing, FetchedAlgorithms.sha256.pointer) == 1 else {
            throw LibCryptoErrorQueue.error("EVP_PKEY_CTX_set_signature_md")
        }
    }

    deinit {
        EVP_PKEY_CTX_free(signing)
        EVP_MD_CTX_free(digest)
    }
}

/// Signing contexts for one key. The brief asks for one context per thread; a pool gives the same count in a
/// server with fixed worker threads (it grows to the number of threads signing at once) without thread-specific
/// storage whose destructors would have to outlive the signer.
final class SigningContextPool: Sendable {
    private let key: EVPKey
    private let idle = Mutex<[SigningContext]>([])
    private static let maximumIdle = 64

    init(key: EVPKey) {
        self.key = key
    }

    func withContext<Result>(_ body: (SigningContext) throws -> Result) throws -> Result {
        let context = try idle.withLock { $0.popLast() } ?? SigningContext(key: key)
        let result = try body(context)
        // A context whose operation failed goes back too: EVP_PKEY_sign leaves no partial state behind.
        idle.withLock { contexts in
            if contexts.count < Self.maximumIdle { contexts.append(context) }
        }
        return result
    }
}
