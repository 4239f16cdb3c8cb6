/// Why a whole label batch was refused (item problems are per-item results instead).
public enum LabelError: Error, Sendable, Equatable {
    /// The Idempotency-Key was used before with a different body.
    case idempotencyKeyReused
    /// The store failed; nothing of the batch was written, and a retry may work.
    case storageFailed
}
