import CCrypto
import Synchronization

/// One keyed `EVP_MAC_CTX`, used by a single caller at a time (the pool guarantees that).
final class MACContext: @unchecked Sendable {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_MAC_CTX_free(pointer)
    }
}

/// Keyed HMAC contexts for reuse. Keying HMAC (hashing the padded key into the inner and outer states) and
/// allocating a context cost more than the MAC of a short subject ref; a keyed context is instead re-armed with
/// `EVP_MAC_init(ctx, NULL, 0, NULL)`, which restores the precomputed keyed state. Each caller takes a context out
/// of the pool and puts it back, so a context is never shared between threads; the pool grows to the number of
/// threads that MAC at the same time.
final class MACContextPool: Sendable {
    private let template: MACContext
    private let idle = Mutex<[MACContext]>([])
    private static let maximumIdle = 64

    init(key: [UInt8]) {
        guard let context = EVP_MAC_CTX_new(FetchedAlgorithms.hmac.pointer) else {
            fatalError("libcrypto EVP_MAC_CTX_new failed: \(LibCryptoErrorQueue.drainReason())")
        }
        let status = "digest".withCString { name in
            "SHA256".withCString { digest in
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(name, UnsafeMutablePointer(mutating: digest), 0),
                    OSSL_PARAM_construct_end(),
                ]
                // A null key pointer means "keep the current key" to libcrypto, so an empty key needs a non-null one.
                return key.withNonNullBytes { keyBytes, keyCount in
                    EVP_MAC_init(context, keyBytes, keyCount, &parameters)
                }
            }
        }
        // HMAC-SHA256 accepts any key length; failure here means a broken libcrypto installation.
        precondition(status == 1, "libcrypto EVP_MAC_init failed: \(LibCryptoErrorQueue.drainReason())")
        template = MACContext(taking: context)
    }

    func withContext<Result>(_ body: (OpaquePointer) -> Result) -> Result {
        let context = idle.withLock { $0.popLast() } ?? duplicateTemplate()
        // Re-arm with the keyed state whether the context is fresh or was used before.
        let status = EVP_MAC_init(context.pointer, nil, 0, nil)
        precondition(status == 1, "libcrypto EVP_MAC_init failed: \(LibCryptoErrorQueue.drainReason())")
        let result = body(context.pointer)
        idle.withLock { contexts in
            if contexts.count < Self.maximumIdle { contexts.append(context) }
        }
        return result
    }

    private func duplicateTemplate() -> MACContext {
        guard let copy = EVP_MAC_CTX_dup(template.pointer) else {
            fatalError("libcrypto EVP_MAC_CTX_dup failed: \(LibCryptoErrorQueue.drainReason())")
        }
        return MACContext(taking: copy)
    }
}
