#if canImport(Glibc)
import Glibc
#endif

/// The boosting loop: gradients, one tree per round, margins of training and validation rows, early stopping.
struct BoostingRounds {
    let parameters: TrainingParameters
    let binning: FeatureBinning
    let train: Dataset
    let valid: Dataset
    let baseMargin: Float

    struct Result {
        var trees: [TrainedTree]
        var bestIteration: Int
        var validationLogLoss: [Double]
        /// Validation margins of the model truncated at `bestIteration`.
        var bestValidationMargins: [Float]
    }

    /// Streams of the seed, one per purpose, so that row and column sampling never shift each other.
    private enum Stream: UInt64 {
        case rows = 1
        case columns = 2
    }

    func run(bins: UnsafePointer<UInt8>, columns: UnsafePointer<UInt8>, progress: TrainingProgressReporter?) -> Result {
        let width = train.featureCount
        let rowCount = train.rowCount
        let workspace = TrainingWorkspace(rowCount: rowCount, totalBins: binning.totalBins)
        var trainMargins = [Float](repeating: baseMargin, count: rowCount)
        var validMargins = [Float](repeating: baseMargin, count: valid.rowCount)
        let offsets = binning.offsets
        let binCounts = (0..<width).map { binning.valueBinCount($0) + 1 }
        var features = Array(0..<width)
        var trees: [TrainedTree] = []
        var history: [Double] = []
        var bestIteration = 0
        var bestLoss = Double.infinity
        var bestValidationMargins = validMargins
        let clock = ContinuousClock()
        var lastReport = clock.now

        for iteration in 0..<parameters.trees {
            computeGradients(margins: trainMargins, into: workspace.gradients)
            let sampledRows = sampleRows(iteration: iteration, into: workspace.rows)
            sampleColumns(iteration: iteration, into: &features)
            let tree: TrainedTree = offsets.withUnsafeBufferPointer { offsets in
                binCounts.withUnsafeBufferPointer { binCounts in
                    features.withUnsafeBufferPointer { features in
                        let histograms = HistogramBuilder(
                            bins: bins, width: width, gradients: workspace.gradients,
                            offsets: offsets.baseAddress!, features: features.baseAddress!,
                            featureCount: features.count, binCounts: binCounts.baseAddress!,
                            threads: parameters.threads, columns: columns, rowCount: rowCount,
                            orderedGradients: workspace.orderedGradients,
                            columnMajorBelow: HistogramBuilder.columnMajorBelow(rowCount: rowCount))
                        let splitFinder = SplitFinder(
                            lambda: parameters.lambda, minChildWeight: parameters.minChildWeight,
                            minSplitGain: parameters.minSplitGain, offsets: offsets.baseAddress!,
                            binCounts: binCounts.baseAddress!, features: features.baseAddress!,
                            featureCount: features.count)
                        let grower = TreeGrower(
                            parameters: parameters, binning: binning, workspace: workspace, histograms: histograms,
                            splitFinder: splitFinder, columns: columns, rowCount: rowCount)
                        let (tree, leafRanges) = grower.grow(sampledRows: sampledRows)
                        updateTrainMargins(
                            &trainMargins, tree: tree, leafRanges: leafRanges, sampledRows: sampledRows,
                            workspace: workspace, bins: bins, width: width)
                        return tree
                    }
                }
            }
            trees.append(tree)
            updateValidMargins(&validMargins, tree: tree)
            let loss = logLoss(margins: validMargins, labels: valid.labels)
            history.append(loss)
            if loss < bestLoss {
                bestLoss = loss
                bestIteration = iteration
                if parameters.earlyStoppingRounds > 0 { bestValidationMargins = validMargins }
            }
            let stopping = parameters.earlyStoppingRounds > 0 && iteration - bestIteration >= parameters.earlyStoppingRounds
            let last = stopping || iteration == parameters.trees - 1
            if let progress, last || clock.now - lastReport >= progress.interval {
                lastReport = clock.now
                let probabilities = validMargins.map { Logistic.probability(margin: $0) }
                progress.report(
                    TrainingProgress(
                        iteration: iteration, totalIterations: parameters.trees,
                        trainLogLoss: logLoss(margins: trainMargins, labels: train.labels),
                        validationLogLoss: loss,
                        validationAUC: RankedScores(scores: probabilities, labels: valid.labels).auc,
                        bestIteration: bestIteration))
            }
            if stopping { break }
        }
        if parameters.earlyStoppingRounds == 0 {
            // Without early stopping every tree is kept.
            bestIteration = trees.count - 1
            bestValidationMargins = validMargins
        }
        return Result(
            trees: trees, bestIteration: bestIteration, validationLogLoss: history,
            bestValidationMargins: bestValidationMargins)
    }

    /// Log loss gradients at the current margins: g = p - y, h = p(1 - p), floored so no hessian is zero.
    private func computeGradients(margins: [Float], into gradients: UnsafeMutablePointer<SIMD2<Float>>) {
        train.labels.withUnsafeBufferPointer { labels in
            margins.withUnsafeBufferPointer { margins in
                for row in 0..<labels.count {
                    let p = Logistic.probability(margin: margins[row])
                    let g = p - Double(labels[row])
                    let h = max(p * (1 - p), 1e-16)
                    gradients[row] = SIMD2<Float>(Float(g), Float(h))
                }
            }
        }
    }

    /// Bernoulli row sampling with probability `subsample`, rows kept ascending. Returns how many were kept.
    private func sampleRows(iteration: Int, into rows: UnsafeMutablePointer<UInt32>) -> Int {
        let rowCount = train.rowCount
        if parameters.subsample >= 1 {
            for row in 0..<rowCount { rows[row] = UInt32(row) }
            return rowCount
        }
        var random = SplitMix64.stream(seed: parameters.seed, purpose: Stream.rows.rawValue, index: UInt64(iteration))
        var count = 0
        for row in 0..<rowCount where random.nextUnit() < parameters.subsample {
            rows[count] = UInt32(row)
            count += 1
        }
        return count
    }

    /// `round(columnSample x features)` features (at least one) for this tree, ascending.
    private func sampleColumns(iteration: Int, into features: inout [Int]) {
        let width = train.featureCount
        guard parameters.columnSample < 1 else { return }
        let keep = max(1, min(width, Int((parameters.columnSample * Double(width)).rounded())))
        var random = SplitMix64.stream(seed: parameters.seed, purpose: Stream.columns.rawValue, index: UInt64(iteration))
        var all = Array(0..<width)
        for i in 0..<keep {
            let j = i + random.next(below: width - i)
            all.swapAt(i, j)
        }
        features = Array(all[0..<keep]).sorted()
    }

    private func updateTrainMargins(
        _ margins: inout [Float], tree: TrainedTree, leafRanges: [(node: Int, range: Range<Int>)], sampledRows: Int,
        workspace: TrainingWorkspace, bins: UnsafePointer<UInt8>, width: Int
    ) {
        margins.withUnsafeMutableBufferPointer { margins in
            if sampledRows == train.rowCount {
                for (node, range) in leafRanges {
                    let value = tree.nodes[node].value
                    for i in range { margins[Int(workspace.rows[i])] += value }
                }
            } else {
                // Rows left out of the sample still need this tree's contribution.
                for row in 0..<train.rowCount { margins[row] += tree.leafValue(binnedRow: bins + row * width) }
            }
        }
    }

    private func updateValidMargins(_ margins: inout [Float], tree: TrainedTree) {
        let width = valid.featureCount
        valid.values.withUnsafeBufferPointer { values in
            margins.withUnsafeMutableBufferPointer { margins in
                for row in 0..<valid.rowCount {
                    margins[row] += tree.leafValue(for: UnsafeBufferPointer(rebasing: values[(row * width)..<((row + 1) * width)]))
                }
            }
        }
    }

    private func logLoss(margins: [Float], labels: [UInt8]) -> Double {
        var total = 0.0
        for (margin, label) in zip(margins, labels) {
            // log(1 + exp(-m)) for positives, log(1 + exp(m)) for negatives, computed without overflow.
            let m = Double(margin)
            let z = label == 1 ? -m : m
            total += z > 0 ? z + log1p(exp(-z)) : log1p(exp(z))
        }
        return total / Double(max(labels.count, 1))
    }
}
