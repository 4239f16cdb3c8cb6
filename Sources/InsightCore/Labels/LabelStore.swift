/// The reads and writes of one label batch, all inside one transaction.
public protocol LabelTransaction {
    /// The creation time of the evaluation of each of `insightIDs` that belongs to `tenant` and was made in
    /// `environment`; others are absent.
    func evaluationTimes(ofInsights insightIDs: [String], tenant: TenantID, environment: DeploymentEnvironment) throws -> [String: Int64]
    /// The latest label of each of `insightIDs` that has one (the tenant's only).
    func latestLabels(ofInsights insightIDs: [String], tenant: TenantID) throws -> [String: LabelContent]
    func appendLabels(_ versions: [LabelVersion]) throws
    /// Keys are the tenant's per environment: a sandbox batch never answers a production retry. The record is found
    /// by `request.keyDigest`, or by the key itself for a record stored before keys were kept hashed.
    func idempotencyRecord(tenant: TenantID, environment: DeploymentEnvironment, request: IdempotentRequest) throws -> IdempotencyRecord?
    func saveIdempotencyRecord(_ record: IdempotencyRecord) throws
    /// Forgets the records made before `time` (every tenant's): a key is remembered for a bounded time only.
    func deleteIdempotencyRecords(createdBefore time: Int64) throws
    /// What `keyID`'s batches stored on UTC day `day` (`LabelStorageQuota`) and on the day after, by day: the day
    /// after has a tally only when the clock was stepped back across midnight, and counting it keeps the step from
    /// granting a fresh quota (quota probe, 6 December). A tally further ahead is a clock that was wrong (set days
    /// or months ahead, then mended) and is not counted: it would hold the key back until that day (second
    /// regression probe).
    func storedLabelBytes(keyID: String, day: Int64) throws -> LabelStorageTally
    /// Adds `bytes` to `keyID`'s tally of day `day`, and forgets every tally older than the day before (kept for a
    /// clock stepped back across midnight, which finds it again) or more than a day ahead.
    func addStoredLabelBytes(_ bytes: Int64, keyID: String, day: Int64) throws
}

/// Where labels are kept.
public protocol LabelStore: Sendable {
    /// Runs `body` in one transaction and calls back once it is durable, with what `body` returned; if `body`
    /// throws, none of its writes is kept and the callback gets its error as is. May call back on another thread.
    func inLabelTransaction<T: Sendable>(
        _ body: @escaping (any LabelTransaction) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void)
}
