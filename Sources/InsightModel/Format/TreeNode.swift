/// A tree written as nested nodes, for code that builds models (the trainer, tests). `ModelTree(root:)` lays it
/// out in the columnar form. Thresholds and leaf values are float32, the XGBoost semantics: left iff `x < t`,
/// NaN goes the default direction.
public indirect enum TreeNode: Sendable, Hashable {
    case leaf(value: Float, cover: Double? = nil)
    case split(
        feature: Int, threshold: Float, defaultLeft: Bool, left: TreeNode, right: TreeNode, cover: Double? = nil)
}
