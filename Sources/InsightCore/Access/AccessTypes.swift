/// Who may call what: every key belongs to one tenant, one role and one environment.
public enum KeyRole: String, Sendable, CaseIterable, Codable {
    /// Client apps: evaluations, consumption reports, authorization state, compliance figures.
    case client
    /// Partners' back offices: offline labels.
    case partner
    /// Analysts: label metrics.
    case analyst
}

/// Sandbox traffic may force outcomes for testing and never counts in production metrics.
public enum DeploymentEnvironment: String, Sendable, CaseIterable, Codable {
    case sandbox
    case production
}

/// A tenant's identifier: 1 to 64 characters of letters, digits, '-' and '_'.
public struct TenantID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init?(_ rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= 64,
              rawValue.utf8.allSatisfy({ $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

extension UInt8 {
    var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}

/// The state of a key. A revoked key answers 401; a key suspended for non-compliance answers 403 until reinstated.
public enum KeyStatus: String, Sendable, CaseIterable {
    case active
    case revoked
    case suspended
}

/// A stored API key: never the secret, only its SHA-256.
public struct APIKeyRecord: Sendable, Equatable {
    public var keyID: String
    public var tenant: TenantID
    public var role: KeyRole
    public var environment: DeploymentEnvironment
    public var secretHash: [UInt8]
    public var status: KeyStatus
    public var createdAt: Int64
    /// Requests per second this key may sustain, and the burst above it (nil: the service default).
    public var rate: Double?
    public var burst: Int?

    public init(
        keyID: String, tenant: TenantID, role: KeyRole, environment: DeploymentEnvironment, secretHash: [UInt8],
        status: KeyStatus, createdAt: Int64, rate: Double? = nil, burst: Int? = nil
    ) {
        self.keyID = keyID
        self.tenant = tenant
        self.role = role
        self.environment = environment
        self.secretHash = secretHash
        self.status = status
        self.createdAt = createdAt
        self.rate = rate
        self.burst = burst
    }
}

/// The caller a request was authenticated as.
public struct Principal: Sendable, Equatable {
    public var keyID: String
    public var tenant: TenantID
    public var role: KeyRole
    public var environment: DeploymentEnvironment
    public var rate: Double?
    public var burst: Int?
    /// Suspended for not reporting consumption. Only routes that admit suspended keys (the key's own reports and
    /// compliance figures, which is how it catches up and learns why, and a person's opt-in) ever see such a
    /// principal.
    public var isSuspended: Bool

    public init(
        keyID: String, tenant: TenantID, role: KeyRole, environment: DeploymentEnvironment, rate: Double? = nil,
        burst: Int? = nil, isSuspended: Bool = false
    ) {
        self.keyID = keyID
        self.tenant = tenant
        self.role = role
        self.environment = environment
        self.rate = rate
        self.burst = burst
        self.isSuspended = isSuspended
    }
}
