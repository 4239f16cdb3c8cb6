/// The result of training: trees summed in order in float32 on top of `baseMargin`, with what the trainer
/// learnt about them on the validation data.
public struct TrainedModel: Sendable {
    public var featureNames: [String]
    /// logit of the training positive rate, as float32.
    public var baseMargin: Float
    /// Only the trees up to and including the best iteration.
    public var trees: [TrainedTree]
    public var parameters: TrainingParameters
    /// 0-based index of the round with the lowest validation log loss (the last tree kept).
    public var bestIteration: Int
    /// Rounds actually trained (early stopping may end before `parameters.trees`).
    public var roundsTrained: Int
    /// Validation log loss after each trained round.
    public var validationLogLossHistory: [Double]
    /// Whether `bestIteration` is early stopping's choice; without it every round is kept, and the last tree is no
    /// judgement of the validation loss.
    public var keepsEveryRound: Bool { parameters.earlyStoppingRounds == 0 }
    /// 0-based round after which the validation log loss was lowest (the first such round on a tie).
    public var lowestValidationLossIteration: Int {
        validationLogLossHistory.indices.min { validationLogLossHistory[$0] < validationLogLossHistory[$1] } ?? 0
    }
    public var trainingRows: Int
    public var trainingPositives: Int
    public var validationRows: Int
    public var validationPositives: Int
    public var thresholds: ThresholdSelection
    public var validationMetrics: BinaryMetrics

    /// Margin of one row in the scorer's arithmetic: base margin, then each tree's leaf added in float32.
    public func margin(for row: UnsafeBufferPointer<Float>) -> Float {
        var margin = baseMargin
        for tree in trees { margin += tree.leafValue(for: row) }
        return margin
    }

    public func probability(for row: UnsafeBufferPointer<Float>) -> Double {
        Logistic.probability(margin: margin(for: row))
    }

    /// Probabilities for every row of a data set whose columns are in `featureNames` order.
    public func probabilities(for dataset: Dataset) -> [Double] {
        margins(for: dataset).map { Logistic.probability(margin: $0) }
    }

    public func margins(for dataset: Dataset) -> [Float] {
        let width = dataset.featureCount
        return dataset.values.withUnsafeBufferPointer { values in
            (0..<dataset.rowCount).map { row in
                margin(for: UnsafeBufferPointer(rebasing: values[(row * width)..<((row + 1) * width)]))
            }
        }
    }
}
