/// A secret HMAC key. It has no description, debug description or mirror that shows its bytes, so it cannot end up
/// in a log line or a crash dump by interpolation.
public struct HMACKey: Sendable {
    let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A fresh random key; 32 bytes matches SHA-256's output and is the size RFC 2104 recommends at least.
    public static func generate(byteCount: Int = 32) -> HMACKey {
        HMACKey(bytes: SecureRandom.bytes(byteCount))
    }

    public var byteCount: Int { bytes.count }

    /// The key bytes, for the one place that must persist them (e.g. an encrypted secret store).
    public func withUnsafeKeyBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes(body)
    }
}

extension HMACKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "HMACKey(\(bytes.count) bytes, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
