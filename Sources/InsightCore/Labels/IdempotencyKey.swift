import InsightCrypto

/// The `Idempotency-Key` header: 1 to 128 visible ASCII characters chosen by the client.
public struct IdempotencyKey: Hashable, Sendable {
    public static let maximumLength = 128

    public let rawValue: String

    public init?(_ rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= Self.maximumLength,
              rawValue.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        self.rawValue = rawValue
    }
}

/// A request made under an idempotency key: the key, what the store keeps in its place, and the SHA-256 of the
/// exact body, so that a retry can be told from a different request reusing the key.
public struct IdempotentRequest: Sendable, Equatable {
    public var key: IdempotencyKey
    /// The key as stored: a keyed hash (`SubjectHasher.digest(of:tenant:environment:)`), since a key is text the
    /// client chose and may hold a case number or a customer's name.
    public var keyDigest: String
    public var bodyHash: [UInt8]

    public init(key: IdempotencyKey, keyDigest: String, body: [UInt8]) {
        self.key = key
        self.keyDigest = keyDigest
        self.bodyHash = SHA256.hash(body)
    }
}

/// The answer kept for a key, to be given again to a retry.
public struct IdempotencyRecord: Sendable, Equatable {
    public var tenant: TenantID
    public var environment: DeploymentEnvironment
    /// `IdempotentRequest.keyDigest`.
    public var keyDigest: String
    public var bodyHash: [UInt8]
    public var response: [UInt8]
    public var createdAt: Int64

    public init(
        tenant: TenantID, environment: DeploymentEnvironment, keyDigest: String, bodyHash: [UInt8], response: [UInt8],
        createdAt: Int64
    ) {
        self.tenant = tenant
        self.environment = environment
        self.keyDigest = keyDigest
        self.bodyHash = bodyHash
        self.response = response
        self.createdAt = createdAt
    }
}
