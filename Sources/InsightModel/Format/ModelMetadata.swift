/// Who the model is for and where it came from.
public struct ModelMetadata: Codable, Sendable, Hashable {
    /// Wire name of the insight, e.g. `isLikelyBeingCoached`.
    public var insightType: String
    /// Operation category, e.g. `payment`.
    public var category: String
    /// Model version as the API names it, e.g. `2026.09.1`.
    public var version: String
    /// RFC 3339 UTC timestamp, e.g. `2026-09-14T10:00:00Z` (a string so no date strategy is needed).
    public var createdAt: String
    public var training: TrainingProvenance
    /// Metrics on data the model never saw; absent for imported models until measured.
    public var heldOutMetrics: HeldOutMetrics?

    public init(
        insightType: String,
        category: String,
        version: String,
        createdAt: String,
        training: TrainingProvenance,
        heldOutMetrics: HeldOutMetrics? = nil
    ) {
        self.insightType = insightType
        self.category = category
        self.version = version
        self.createdAt = createdAt
        self.training = training
        self.heldOutMetrics = heldOutMetrics
    }
}
