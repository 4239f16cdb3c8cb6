/// What an importer needs besides the source file: the identity the model gets in our format.
public struct ModelImportOptions: Sendable {
    public var insightType: String
    public var category: String
    public var version: String
    public var createdAt: String
    /// Replaces the source's feature names (must match its feature count).
    public var featureNames: [String]?
    public var thresholds: RiskThresholds
    /// XGBoost: keep only the trees up to the `best_iteration` that early stopping recorded, as the scikit-learn
    /// wrapper predicts; by default every tree in the file is kept, as `Booster.predict` does.
    public var keepsBestIterationOnly = false

    /// Most features a source model may declare. The count comes from the file and sizes the name list, so a
    /// corrupt count must be refused before anything is allocated for it.
    public static let maximumFeatures = 1 << 16

    public init(
        insightType: String, category: String, version: String, createdAt: String,
        featureNames: [String]? = nil, thresholds: RiskThresholds = RiskThresholds(medium: 0.2, high: 0.5)
    ) {
        self.insightType = insightType
        self.category = category
        self.version = version
        self.createdAt = createdAt
        self.featureNames = featureNames
        self.thresholds = thresholds
    }
}
