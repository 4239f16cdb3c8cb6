import InsightCrypto
import Synchronization

/// Where each tenant's subject key comes from.
public protocol SubjectKeySource: Sendable {
    func subjectKey(for tenant: TenantID) throws -> HMACKey?
}

/// Turns raw subject refs into keyed hashes: HMAC-SHA-256 with the tenant's secret key over the environment, the
/// kind of ref and the ref, truncated to 128 bits. The environment is mixed in so sandbox traffic never touches
/// production velocity; the kind, so an account and a device with the same ref text do not collide.
public final class SubjectHasher: Sendable {
    private let source: any SubjectKeySource
    private let macs = Mutex<[TenantID: HMACSHA256]>([:])

    public init(source: any SubjectKeySource) { self.source = source }

    public func key(for ref: String, kind: SubjectRefKind, tenant: TenantID, environment: DeploymentEnvironment) throws -> SubjectKey {
        let mac = try mac(for: tenant)
        let environment = environment.rawValue.utf8
        let kind = kind.rawValue.utf8
        let length = environment.count + 1 + kind.count + 1 + ref.utf8.count
        // Three per evaluation: the message and the MAC live on the stack (refs are short; a long one goes to the
        // heap inside the temporary allocation), and only 16 bytes of the MAC are kept.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { message in
            var end = message.initialize(fromContentsOf: environment)
            message[end] = 0
            end = message[(end + 1)...].initialize(fromContentsOf: kind)
            message[end] = 0
            end = message[(end + 1)...].initialize(fromContentsOf: ref.utf8)
            precondition(end == length)
            defer { message.deinitialize() }
            return mac.withAuthenticationCode(for: UnsafeBufferPointer(message)) { SubjectKey(macBytes: $0) }
        }
    }

    /// What the store keeps in place of an `Idempotency-Key`: `hmac ` and the whole HMAC-SHA-256, in hex, under the
    /// tenant's key, over the environment, `idempotencyKey` and the key. The space keeps a digest apart from any
    /// key as sent, which is visible ASCII only.
    public func digest(of key: IdempotencyKey, tenant: TenantID, environment: DeploymentEnvironment) throws -> String {
        let mac = try mac(for: tenant)
        let message = Array(environment.rawValue.utf8) + [0] + Array("idempotencyKey".utf8) + [0] + Array(key.rawValue.utf8)
        let digits = Array("0123456789abcdef".utf8)
        var text = Array("hmac ".utf8)
        for byte in mac.authenticationCode(for: message) {
            text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
        }
        return String(decoding: text, as: UTF8.self)
    }

    private func mac(for tenant: TenantID) throws -> HMACSHA256 {
        if let cached = macs.withLock({ $0[tenant] }) { return cached }
        guard let key = try source.subjectKey(for: tenant) else { throw SubjectHasherError.unknownTenant }
        let mac = HMACSHA256(key: key)
        macs.withLock { $0[tenant] = mac }
        return mac
    }
}

public enum SubjectHasherError: Error, Equatable {
    case unknownTenant
}
