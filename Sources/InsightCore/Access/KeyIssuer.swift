/// What key management needs from the store.
public protocol KeyIssuingStore: Sendable {
    /// Stores the keys, creating their tenants that do not exist yet, all or nothing: a failure part-way must not
    /// leave a tenant with some of the keys whose secrets were shown together.
    func insertKeys(_ records: [APIKeyRecord], now: Int64) throws
}

/// Creates keys: a fresh random secret, of which only the SHA-256 is stored.
public struct KeyIssuer: Sendable {
    public let store: any KeyIssuingStore

    public init(store: any KeyIssuingStore) { self.store = store }

    public func issue(
        tenant: TenantID, role: KeyRole, environment: DeploymentEnvironment, rate: Double? = nil, burst: Int? = nil, now: Int64
    ) throws -> APIKeySecret {
        let secret = APIKeySecret.generate(environment: environment)
        try record(secret, tenant: tenant, role: role, environment: environment, rate: rate, burst: burst, now: now)
        return secret
    }

    /// Stores a secret generated earlier with `APIKeySecret.generate(environment:)` for the same `environment`, for
    /// a caller that must show it before the key exists: a key whose secret was never shown is one nobody can use.
    public func record(
        _ secret: APIKeySecret, tenant: TenantID, role: KeyRole, environment: DeploymentEnvironment, rate: Double? = nil,
        burst: Int? = nil, now: Int64
    ) throws {
        try record([(role, secret)], tenant: tenant, environment: environment, rate: rate, burst: burst, now: now)
    }

    /// Stores several secrets generated earlier, in one transaction: either all of the keys exist afterwards, or
    /// none of them and no tenant created for them.
    public func record(
        _ secrets: [(role: KeyRole, secret: APIKeySecret)], tenant: TenantID, environment: DeploymentEnvironment,
        rate: Double? = nil, burst: Int? = nil, now: Int64
    ) throws {
        try store.insertKeys(secrets.map { role, secret in
            APIKeyRecord(
                keyID: secret.keyID, tenant: tenant, role: role, environment: environment, secretHash: secret.hash,
                status: .active, createdAt: now, rate: rate, burst: burst)
        }, now: now)
    }
}
