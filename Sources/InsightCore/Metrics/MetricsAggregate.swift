/// The exact counts the store keeps per tenant, environment, UTC evaluation day, category, model version, outcome
/// and consumption bucket. Each evaluated insight with an outcome value counts once; its latest label decides
/// whether it counts as confirmed fraud or confirmed legitimate.
public struct MetricsAggregate: Sendable, Equatable {
    public struct Key: Sendable, Hashable {
        public var environment: DeploymentEnvironment
        public var day: Int64
        public var category: OperationCategory
        /// Empty when the insight named no model version.
        public var modelVersion: String
        public var outcome: RiskLevel
        public var consumption: ConsumptionBucket

        public init(
            environment: DeploymentEnvironment, day: Int64, category: OperationCategory, modelVersion: String,
            outcome: RiskLevel, consumption: ConsumptionBucket
        ) {
            self.environment = environment
            self.day = day
            self.category = category
            self.modelVersion = modelVersion
            self.outcome = outcome
            self.consumption = consumption
        }
    }

    public var key: Key
    public var evaluations: Int
    /// Of `evaluations`, those whose consumption report arrived after the deadline.
    public var late: Int
    public var confirmedFraud: Int
    public var confirmedLegitimate: Int

    public init(key: Key, evaluations: Int, late: Int = 0, confirmedFraud: Int = 0, confirmedLegitimate: Int = 0) {
        self.key = key
        self.evaluations = evaluations
        self.late = late
        self.confirmedFraud = confirmedFraud
        self.confirmedLegitimate = confirmedLegitimate
    }
}

/// How many labelled insights of one aggregate key got their first label a given number of whole days after the
/// evaluation.
public struct LatencyAggregate: Sendable, Equatable {
    public var key: MetricsAggregate.Key
    public var latencyDays: Int
    public var labels: Int

    public init(key: MetricsAggregate.Key, latencyDays: Int, labels: Int) {
        self.key = key
        self.latencyDays = latencyDays
        self.labels = labels
    }
}

/// Where the aggregates come from: the store, or a fake in tests.
public protocol MetricsSource: Sendable {
    /// Calls `aggregate` for every non-empty aggregate of `query`'s tenant, environments and days, and `latency` for
    /// every latency count of the same slice, in any order.
    func forEachAggregate(
        _ query: MetricsQuery, aggregate: (MetricsAggregate) -> Void, latency: (LatencyAggregate) -> Void
    ) throws
}
