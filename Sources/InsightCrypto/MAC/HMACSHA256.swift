import CCrypto

/// HMAC-SHA256 (RFC 2104) through libcrypto's `EVP_MAC`, with keyed contexts reused across calls (see
/// `MACContextPool`). Safe to share between threads and tasks.
public struct HMACSHA256: Sendable {
    public static let byteCount = 32

    private let contexts: MACContextPool

    public init(key: HMACKey) {
        contexts = MACContextPool(key: key.bytes)
    }

    public func authenticationCode(for bytes: some Collection<UInt8>) -> [UInt8] {
        contexts.withContext { context in
            bytes.withNonNullBytes { pointer, count in
                [UInt8](unsafeUninitializedCapacity: Self.byteCount) { mac, initialized in
                    var length = 0
                    let status = EVP_MAC_update(context, pointer, count) == 1
                        && EVP_MAC_final(context, mac.baseAddress, &length, Self.byteCount) == 1
                    precondition(status && length == Self.byteCount,
                                 "libcrypto HMAC failed: \(LibCryptoErrorQueue.drainReason())")
                    initialized = Self.byteCount
                }
            }
        }
    }

    /// True iff `code` is the MAC of `bytes`, compared in constant time.
    public func isValidAuthenticationCode(_ code: [UInt8], for bytes: some Collection<UInt8>) -> Bool {
        ConstantTime.equals(authenticationCode(for: bytes), code)
    }
}

extension HMACSHA256: CustomStringConvertible, CustomReflectable {
    public var description: String { "HMACSHA256(key redacted)" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
