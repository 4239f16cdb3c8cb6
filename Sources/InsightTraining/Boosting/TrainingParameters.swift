/// Everything that decides the model. Defaults follow XGBoost's where they exist (depth 6, eta 0.3 there; we
/// default to 0.1 with 200 trees and early stopping, the shape the shipped models use).
public struct TrainingParameters: Sendable, Hashable, Codable {
    /// Upper bound on boosting rounds; early stopping may keep fewer.
    public var trees: Int = 200
    public var maxDepth: Int = 6
    /// Shrinkage η applied to every leaf weight.
    public var learningRate: Double = 0.1
    /// Minimum sum of hessians in each child of a split.
    public var minChildWeight: Double = 1
    /// L2 regularisation λ on leaf weights.
    public var lambda: Double = 1
    /// Minimum loss reduction for a split (XGBoost's gamma).
    public var minSplitGain: Double = 0
    /// Fraction of rows drawn (without replacement, Bernoulli) for each tree.
    public var subsample: Double = 1
    /// Fraction of features drawn for each tree.
    public var columnSample: Double = 1
    /// Stop when validation log loss has not improved for this many rounds; 0 disables early stopping.
    public var earlyStoppingRounds: Int = 20
    public var seed: UInt64 = 0
    /// Histogram bins per feature, including the one for missing values (at most 256).
    public var maxBins: Int = 256
    /// Threads for histogram construction; the model is bit-identical for any value.
    public var threads: Int = 1

    public init() {}

    /// Deepest tree the trainer grows; the model runtime limits depth too.
    public static let maximumDepth = 12

    func validated() throws(TrainingError) -> TrainingParameters {
        func check(_ condition: Bool, _ name: String, _ rule: String) throws(TrainingError) {
            if !condition { throw .invalidParameter(name: name, rule: rule) }
        }
        try check(trees >= 1, "trees", "at least 1")
        try check((1...Self.maximumDepth).contains(maxDepth), "maxDepth", "1...\(Self.maximumDepth)")
        try check(learningRate > 0 && learningRate <= 1, "learningRate", "in (0, 1]")
        try check(minChildWeight >= 0 && minChildWeight.isFinite, "minChildWeight", "finite and >= 0")
        try check(lambda >= 0 && lambda.isFinite, "lambda", "finite and >= 0")
        try check(minSplitGain >= 0 && minSplitGain.isFinite, "minSplitGain", "finite and >= 0")
        try check(subsample > 0 && subsample <= 1, "subsample", "in (0, 1]")
        try check(columnSample > 0 && columnSample <= 1, "columnSample", "in (0, 1]")
        try check(earlyStoppingRounds >= 0, "earlyStoppingRounds", ">= 0")
        try check((2...256).contains(maxBins), "maxBins", "2...256")
        try check((1...64).contains(threads), "threads", "1...64")
        return self
    }
}
