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
        [UInt8](unsafeUninitializedCapacity: Self.byteCount) { mac, initialized in
            write(authenticationCodeOf: bytes, to: UnsafeMutableRawBufferPointer(mac))
            initialized = Self.byteCount
        }
    }

    /// Calls `body` with the MAC of `bytes` in temporary storage: no allocation, for a caller that keeps only part
    /// of it (a truncated key) on a hot path.
    public func withAuthenticationCode<Result>(
        for bytes: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        try withUnsafeTemporaryAllocation(byteCount: Self.byteCount, alignment: 1) { mac in
            write(authenticationCodeOf: bytes, to: mac)
            return try body(UnsafeRawBufferPointer(mac))
        }
    }

    private func write(authenticationCodeOf bytes: some Collection<UInt8>, to mac: UnsafeMutableRawBufferPointer) {
        contexts.withContext { context in
            bytes.withNonNullBytes { pointer, count in
                var length = 0
                let status = EVP_MAC_update(context, pointer, count) == 1
                    && EVP_MAC_final(context, mac.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, Self.byteCount) == 1
                precondition(status && length == Self.byteCount,
                             "libcrypto HMAC failed: \(LibCryptoErrorQueue.drainReason())")
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
