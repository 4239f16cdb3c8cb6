/// Where an evaluated insight falls in the consumption mix: the status its evaluation was reported with, or
/// `missing` while no report has been received.
public enum ConsumptionBucket: String, Sendable, CaseIterable, Hashable {
    case usedReducedFriction
    case usedUnchangedFriction
    case usedIncreasedFriction
    case notUsedNotNeeded
    case notUsedError
    case usedEvaluationOnly
    case missing

    public init(_ status: ConsumptionStatus?) {
        guard let status else {
            self = .missing
            return
        }
        self = ConsumptionBucket(rawValue: status.rawValue) ?? .missing
    }
}
