/// Why a whole label batch was refused (item problems are per-item results instead).
public enum LabelError: Error, Sendable, Equatable {
    /// The Idempotency-Key was used before with a different body.
    case idempotencyKeyReused
    /// The batch would take the key past the bytes it may store per UTC day (`LabelStorageQuota`); nothing of it was
    /// stored. `retryAfterSeconds` is the time until the batch would be taken: the next UTC day, when the key's tally
    /// starts again at 0, or the one after when a clock step left that day's tally too full.
    case storageQuotaExceeded(bytesPerDay: Int64, retryAfterSeconds: Int)
    /// The store failed; nothing of the batch was written, and a retry may work.
    case storageFailed
}
