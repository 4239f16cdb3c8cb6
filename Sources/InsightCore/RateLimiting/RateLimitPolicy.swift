/// Every limit the service enforces, read from `config/rate-limits.json` (see docs/RATE-LIMITS.md).
public struct RateLimitPolicy: Sendable, Equatable {
    /// A client key's evaluations, unless the key or its tenant has its own.
    public var key: RateLimit
    /// Per tenant, the default for that tenant's keys (a key's own `--rate`/`--burst` wins).
    public var tenants: [String: RateLimit]
    /// One app on one device (the hashed deviceRef): evaluation error `rateLimitExceeded`.
    public var device: RateLimit
    /// One tenant's evaluations of one insight type: insight error `rateLimitError`, the other insights go on.
    public var insightType: RateLimit
    public var compliance: CompliancePolicy
    /// What one partner key's label batches may store per UTC day.
    public var labels: LabelStorageQuota

    public init(
        key: RateLimit = RateLimit(ratePerSecond: 200, burst: 400),
        tenants: [String: RateLimit] = [:],
        device: RateLimit = RateLimit(ratePerSecond: 1, burst: 20),
        insightType: RateLimit = RateLimit(ratePerSecond: 5000, burst: 10000),
        compliance: CompliancePolicy = CompliancePolicy(),
        labels: LabelStorageQuota = LabelStorageQuota()
    ) {
        self.key = key
        self.tenants = tenants
        self.device = device
        self.insightType = insightType
        self.compliance = compliance
        self.labels = labels
    }

    /// The limit for a key before any compliance cut: its own, else its tenant's, else the default.
    public func limit(for principal: Principal) -> RateLimit {
        if let rate = principal.rate {
            return RateLimit(ratePerSecond: rate, burst: principal.burst ?? Self.burst(forOwnRate: rate))
        }
        return tenants[principal.tenant.rawValue] ?? key
    }

    /// The burst of a key given its own rate but no burst: twice the rate, rounded up.
    public static func burst(forOwnRate rate: Double) -> Int { max(1, Int(rate.rounded(.up)) * 2) }
}

/// When a key counts as not reporting consumption, and what follows.
public struct CompliancePolicy: Sendable, Equatable {
    /// Evaluations whose reporting deadline fell in this trailing window are judged.
    public var windowSeconds: Int
    /// Below this many judged evaluations a key is not judged at all (too few to tell).
    public var minimumJudged: Int
    /// A missing share above this cuts the key's rate.
    public var threshold: Double
    /// The cut: the key's rate and burst are multiplied by this while it is non-compliant.
    public var reducedRateFactor: Double
    /// Non-compliant for this long without a break, the key is suspended until an operator reinstates it.
    /// 0 turns suspension off.
    public var suspendAfterSeconds: Int

    public init(
        windowSeconds: Int = 3600, minimumJudged: Int = 50, threshold: Double = 0.2, reducedRateFactor: Double = 0.25,
        suspendAfterSeconds: Int = 86_400
    ) {
        self.windowSeconds = windowSeconds
        self.minimumJudged = minimumJudged
        self.threshold = threshold
        self.reducedRateFactor = reducedRateFactor
        self.suspendAfterSeconds = suspendAfterSeconds
    }
}
