/// How the app used an evaluation (`InsightEvaluationConsumptionStatus` of the public API).
public enum ConsumptionStatus: String, Sendable, CaseIterable {
    case usedReducedFriction
    case usedUnchangedFriction
    case usedIncreasedFriction
    /// The person cancelled.
    case notUsedNotNeeded
    /// A technical failure, such as the result arriving too late.
    case notUsedError
    /// Internal evaluation or benchmarking, with no effect on the experience.
    case usedEvaluationOnly
}
