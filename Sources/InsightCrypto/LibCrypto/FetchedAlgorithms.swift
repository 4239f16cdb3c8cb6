import CCrypto

/// An algorithm implementation fetched once from the default provider. Fetching by name on every call (what
/// `EVP_sha256()` and `EVP_Q_mac` do implicitly) takes provider locks and costs more than hashing a short input.
/// Fetched algorithms are immutable and libcrypto documents them as safe to share between threads.
struct FetchedAlgorithm: @unchecked Sendable {
    let pointer: OpaquePointer
}

enum FetchedAlgorithms {
    static let sha256: FetchedAlgorithm = {
        guard let md = EVP_MD_fetch(nil, "SHA256", nil) else {
            // Without SHA-256 in the default provider no part of the service can work.
            fatalError("libcrypto: SHA256 unavailable: \(LibCryptoErrorQueue.drainReason())")
        }
        return FetchedAlgorithm(pointer: md)
    }()

    static let hmac: FetchedAlgorithm = {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else {
            fatalError("libcrypto: HMAC unavailable: \(LibCryptoErrorQueue.drainReason())")
        }
        return FetchedAlgorithm(pointer: mac)
    }()
}
