@testable import InsightModel

/// Small hand-written documents for validation and registry tests.
enum HandModels {
    static func metadata(version: String = "2026.09.1", category: String = "payment") -> ModelMetadata {
        ModelMetadata(
            insightType: "isLikelyBeingCoached", category: category, version: version, createdAt: "2026-09-14T10:00:00Z",
            training: TrainingProvenance(source: "test", tool: "hand"))
    }

    /// One split on feature 0 at 0.5: left leaf -1, right leaf +1.
    static func stump() -> ModelTree {
        ModelTree(
            leftChildren: [1, -1, -1], rightChildren: [2, -1, -1], splitFeatures: [0, 0, 0], thresholds: [0.5, 0, 0],
            defaultLeft: [true, false, false], leafValues: [0, -1, 1])
    }

    static func document(
        trees: [ModelTree] = [stump()], features: [String] = ["a", "b"], version: String = "2026.09.1",
        category: String = "payment"
    ) -> ModelDocument {
        ModelDocument(
            featureNames: features, baseMargin: 0, semantics: .xgboost, thresholds: RiskThresholds(medium: 0.2, high: 0.6),
            metadata: metadata(version: version, category: category), trees: trees)
    }
}

extension ModelTree {
    /// The stump as a nested node (test helper; only for the two-leaf stump).
    func asTreeNode() -> TreeNode {
        .split(
            feature: splitFeatures[0], threshold: Float(thresholds[0]), defaultLeft: defaultLeft[0],
            left: .leaf(value: Float(leafValues[1])), right: .leaf(value: Float(leafValues[2])))
    }
}
