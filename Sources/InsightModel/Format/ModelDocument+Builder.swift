extension ModelDocument {
    /// A float32, `x < t` model (XGBoost semantics) from nested trees: what a trainer emits.
    public static func float32(
        featureNames: [String],
        baseMargin: Float,
        trees: [TreeNode],
        thresholds: RiskThresholds,
        metadata: ModelMetadata
    ) -> ModelDocument {
        ModelDocument(
            featureNames: featureNames,
            baseMargin: Double(baseMargin),
            semantics: .xgboost,
            thresholds: thresholds,
            metadata: metadata,
            trees: trees.map { ModelTree(root: $0) })
    }
}
