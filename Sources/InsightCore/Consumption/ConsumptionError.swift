/// Why a consumption report was refused.
public enum ConsumptionError: Error, Sendable, Equatable {
    /// Unknown evaluation, or another tenant's: deliberately indistinguishable.
    case evaluationNotFound
    /// The report names insights that are not the evaluation's, or names one twice.
    case invalid([ContextViolation])
    /// A different report was already stored for this evaluation.
    case conflict
    /// The store failed; a retry may work.
    case storageFailed
}
