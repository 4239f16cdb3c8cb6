/// One request for label metrics: a tenant, a range of UTC evaluation days, the environments counted and the
/// dimensions to group by (in the order given).
public struct MetricsQuery: Sendable, Equatable {
    /// The longest range one query may cover; the per-day series grows with it.
    public static let maximumDays: Int64 = 1830

    public var tenant: TenantID
    /// Days since 1970-01-01 (UTC) of the evaluations counted, both ends included.
    public var days: ClosedRange<Int64>
    public var groupBy: [MetricsDimension]
    public var environments: Set<DeploymentEnvironment>

    public init(tenant: TenantID, days: ClosedRange<Int64>, groupBy: [MetricsDimension], environments: Set<DeploymentEnvironment>) {
        self.tenant = tenant
        self.days = days
        self.groupBy = groupBy
        self.environments = environments
    }
}

extension MetricsQuery {
    /// Days since 1970-01-01 of the UTC day holding `milliseconds`.
    public static func day(ofMilliseconds milliseconds: Int64) -> Int64 {
        milliseconds.floorDividedWithRemainder(86_400_000).0
    }
}
