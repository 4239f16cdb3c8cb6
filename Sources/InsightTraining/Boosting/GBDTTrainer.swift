#if canImport(Glibc)
import Glibc
#endif

/// Histogram-based gradient boosting for binary log loss (docs/TRAINING.md).
///
///     let model = try GBDTTrainer(parameters: parameters).train(train: trainSet, valid: validSet)
///
/// Deterministic: the same data, parameters and seed give the same model bits on every run and for any thread
/// count.
public struct GBDTTrainer: Sendable {
    public var parameters: TrainingParameters
    public var thresholdRule: ThresholdRule

    public init(parameters: TrainingParameters = TrainingParameters(), thresholdRule: ThresholdRule = ThresholdRule()) {
        self.parameters = parameters
        self.thresholdRule = thresholdRule
    }

    public func train(
        train: Dataset, valid: Dataset, progress: TrainingProgressReporter? = nil
    ) throws(TrainingError) -> TrainedModel {
        let parameters = try parameters.validated()
        guard train.rowCount > 0 else { throw .emptyData(set: "training") }
        guard valid.rowCount > 0 else { throw .emptyData(set: "validation") }
        guard train.featureNames == valid.featureNames else { throw .featuresDiffer }
        let trainPositives = train.positiveCount
        let validPositives = valid.positiveCount
        guard trainPositives > 0, trainPositives < train.rowCount else {
            throw .singleClass(set: "training", source: train.source, rows: train.rowCount, label: trainPositives > 0 ? 1 : 0)
        }
        guard validPositives > 0, validPositives < valid.rowCount else {
            throw .singleClass(set: "validation", source: valid.source, rows: valid.rowCount, label: validPositives > 0 ? 1 : 0)
        }

        let (binning, binned) = FeatureBinning.fitAndBin(train, maxBins: parameters.maxBins)
        let baseMargin = Float(Logistic.logit(Double(trainPositives) / Double(train.rowCount)))
        let rounds = BoostingRounds(
            parameters: parameters, binning: binning, train: train, valid: valid, baseMargin: baseMargin)
        let columns = Self.transpose(binned, rows: train.rowCount, columns: train.featureCount)
        let result = binned.withUnsafeBufferPointer { bins in
            columns.withUnsafeBufferPointer { columns in
                rounds.run(bins: bins.baseAddress!, columns: columns.baseAddress!, progress: progress)
            }
        }

        let trees = Array(result.trees[0...result.bestIteration])
        // Trees of one leaf each give every row the same score: the `high` threshold would be that score and flag
        // every row. Such a model is worse than none.
        guard trees.contains(where: { !$0.nodes[0].isLeaf }) else { throw .noSplits(rows: train.rowCount) }
        // The loop's validation margins are the reference walk's (same float32 sums, in order).
        let probabilities = result.bestValidationMargins.map { Logistic.probability(margin: $0) }
        // Trees that split can still leave every score where it was (leaves below the float32 margin's precision):
        // the same model as one without splits, refused for the same reason.
        guard let first = probabilities.first, probabilities.contains(where: { $0 != first }) else {
            throw .constantScores(rows: valid.rowCount)
        }
        return TrainedModel(
            featureNames: train.featureNames, baseMargin: baseMargin,
            trees: trees, parameters: parameters,
            bestIteration: result.bestIteration, roundsTrained: result.trees.count,
            validationLogLossHistory: result.validationLogLoss,
            trainingRows: train.rowCount, trainingPositives: trainPositives,
            validationRows: valid.rowCount, validationPositives: validPositives,
            thresholds: thresholdRule.select(probabilities: probabilities, labels: valid.labels),
            validationMetrics: BinaryMetrics(probabilities: probabilities, labels: valid.labels))
    }

    static func transpose(_ matrix: [UInt8], rows: Int, columns: Int) -> [UInt8] {
        var transposed = [UInt8](repeating: 0, count: matrix.count)
        matrix.withUnsafeBufferPointer { matrix in
            transposed.withUnsafeMutableBufferPointer { transposed in
                for row in 0..<rows {
                    for column in 0..<columns { transposed[column * rows + row] = matrix[row * columns + column] }
                }
            }
        }
        return transposed
    }
}
