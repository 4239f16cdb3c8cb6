/// What a report is checked against: the evaluation's creation time and insights, and any report already stored.
public struct ConsumptionTarget: Sendable, Equatable {
    public var createdAt: Int64
    /// The key that asked for the evaluation: its compliance is what the report counts towards.
    public var keyID: String
    public var insightIDs: [String]
    public var existing: ConsumptionRecord?

    public init(createdAt: Int64, keyID: String = "", insightIDs: [String], existing: ConsumptionRecord?) {
        self.createdAt = createdAt
        self.keyID = keyID
        self.insightIDs = insightIDs
        self.existing = existing
    }
}

/// What storing a report found: this report went in, or another request's report for the evaluation was there first.
/// Said by the insert itself, not by comparing records: two identical reports in the same millisecond are equal.
public enum StoredConsumption: Sendable, Equatable {
    case inserted(ConsumptionRecord)
    case alreadyStored(ConsumptionRecord)
}

/// Where consumption reports are kept.
public protocol ConsumptionStore: Sendable {
    /// The tenant's evaluation with this ID made in `environment`; nil when unknown, another tenant's or the other
    /// environment's (one query for all three).
    func consumptionTarget(evaluationID: String, tenant: TenantID, environment: DeploymentEnvironment) throws -> ConsumptionTarget?
    /// Stores `record` unless its evaluation already has a report; once durable, calls back with the report that is
    /// stored (this one, or one a concurrent request stored first). May call back on another thread.
    func recordConsumption(_ record: ConsumptionRecord, completion: @escaping @Sendable (Result<StoredConsumption, any Error>) -> Void)
}
