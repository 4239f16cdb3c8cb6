/// Grows one tree depth-wise (level by level, as XGBoost's `hist` does) over the rows placed in
/// `workspace.rows[0..<sampledRows]`. Each split builds the histogram of its smaller child only and derives the
/// sibling's by subtraction from the parent's.
struct TreeGrower {
    let parameters: TrainingParameters
    let binning: FeatureBinning
    let workspace: TrainingWorkspace
    let histograms: HistogramBuilder
    let splitFinder: SplitFinder
    /// Column-major copy of the bins (`columns[feature * rowCount + row]`): partitioning reads one feature for
    /// scattered rows, and one column (a few hundred KB) stays in cache where the row-major matrix would not.
    let columns: UnsafePointer<UInt8>
    let rowCount: Int

    private struct Pending {
        var node: Int
        var begin: Int
        var end: Int
        /// Histogram slot, or -1 when the node will not be split.
        var slot: Int
        var gradient: Double
        var hessian: Double
    }

    /// Returns the tree and, for every leaf, its range in `workspace.rows` (to update margins without a walk).
    func grow(sampledRows: Int) -> (tree: TrainedTree, leafRanges: [(node: Int, range: Range<Int>)]) {
        var total = SIMD2<Double>.zero
        for i in 0..<sampledRows {
            let pair = workspace.gradients[Int(workspace.rows[i])]
            total += SIMD2<Double>(Double(pair.x), Double(pair.y))
        }
        var nodes: [TrainedTree.Node] = [leaf(gradient: total.x, hessian: total.y)]
        var leafRanges: [(node: Int, range: Range<Int>)] = []
        let rootSlot = parameters.maxDepth > 0 && sampledRows > 1 ? workspace.takeSlot() : -1
        if rootSlot >= 0 {
            histograms.build(rows: workspace.rows, count: sampledRows, into: workspace.slots[rootSlot])
        }
        var level = [Pending(node: 0, begin: 0, end: sampledRows, slot: rootSlot, gradient: total.x, hessian: total.y)]
        for depth in 0..<parameters.maxDepth where !level.isEmpty {
            var next: [Pending] = []
            for pending in level {
                guard pending.slot >= 0,
                    let found = splitFinder.best(
                        histogram: workspace.slots[pending.slot], gradient: pending.gradient, hessian: pending.hessian)
                else {
                    workspace.releaseSlot(pending.slot)
                    leafRanges.append((pending.node, pending.begin..<pending.end))
                    continue
                }
                // Present values against missing ones: "every value bin goes left" has no float32 threshold when a
                // training value is the largest finite float, as none is greater, so the node is written the other
                // way round (no value bin goes left, missing values do).
                let split = found.splitBin == binning.valueBinCount(found.feature) - 1 ? found.sendingMissingLeft() : found
                let middle = partition(pending.begin..<pending.end, by: split)
                let leftIndex = nodes.count
                nodes.append(leaf(gradient: split.leftGradient, hessian: split.leftHessian))
                nodes.append(leaf(gradient: split.rightGradient, hessian: split.rightHessian))
                nodes[pending.node].feature = split.feature
                nodes[pending.node].threshold = binning.threshold(feature: split.feature, splitBin: split.splitBin)
                nodes[pending.node].defaultLeft = split.defaultLeft
                nodes[pending.node].left = leftIndex
                nodes[pending.node].right = leftIndex + 1
                nodes[pending.node].value = 0
                nodes[pending.node].gain = split.gain
                nodes[pending.node].splitBin = split.splitBin
                nodes[pending.node].missingBin = binning.missingBin(split.feature)
                var left = Pending(
                    node: leftIndex, begin: pending.begin, end: middle, slot: -1,
                    gradient: split.leftGradient, hessian: split.leftHessian)
                var right = Pending(
                    node: leftIndex + 1, begin: middle, end: pending.end, slot: -1,
                    gradient: split.rightGradient, hessian: split.rightHessian)
                if depth + 1 < parameters.maxDepth {
                    // The parent's slot becomes the larger child's after subtraction.
                    let smallSlot = workspace.takeSlot()
                    let leftIsSmaller = left.end - left.begin <= right.end - right.begin
                    let small = leftIsSmaller ? left : right
                    histograms.build(
                        rows: workspace.rows + small.begin, count: small.end - small.begin,
                        into: workspace.slots[smallSlot])
                    histograms.subtract(workspace.slots[smallSlot], from: workspace.slots[pending.slot])
                    if leftIsSmaller {
                        left.slot = smallSlot
                        right.slot = pending.slot
                    } else {
                        right.slot = smallSlot
                        left.slot = pending.slot
                    }
                } else {
                    workspace.releaseSlot(pending.slot)
                }
                next.append(left)
                next.append(right)
            }
            level = next
        }
        for pending in level {
            workspace.releaseSlot(pending.slot)
            leafRanges.append((pending.node, pending.begin..<pending.end))
        }
        return (TrainedTree(nodes: nodes), leafRanges)
    }

    private func leaf(gradient: Double, hessian: Double) -> TrainedTree.Node {
        // A round whose sample kept no row has G = H = 0: with λ 0 that leaf was 0/0, NaN, and every margin after it
        // NaN too. Such a leaf learns nothing, so it is 0, as XGBoost's weight for a node without hessian is.
        let denominator = hessian + parameters.lambda
        let weight = denominator > 0 ? -gradient / denominator * parameters.learningRate : 0
        return TrainedTree.Node(
            feature: -1, threshold: 0, defaultLeft: false, left: -1, right: -1,
            value: Float(weight), cover: hessian, gain: 0, splitBin: 0, missingBin: 0)
    }

    /// Stable partition of the node's rows: left rows keep their order in place, right rows follow in order, so
    /// every node's rows stay ascending and the histogram loop reads memory forwards.
    private func partition(_ range: Range<Int>, by split: SplitCandidate) -> Int {
        let rows = workspace.rows
        let scratch = workspace.scratch
        let missingBin = binning.missingBin(split.feature)
        let splitBin = split.splitBin
        let column = columns + split.feature * rowCount
        var leftCount = range.lowerBound
        var rightCount = 0
        // Branch-free: the side is a coin flip to the branch predictor, so write the row to both places and
        // advance only the count of the side it belongs to.
        for i in range {
            let row = rows[i]
            let bin = Int(column[Int(row)])
            let goesLeft = bin == missingBin ? split.defaultLeft : bin <= splitBin
            let left = goesLeft ? 1 : 0
            rows[leftCount] = row
            scratch[rightCount] = row
            leftCount += left
            rightCount += 1 - left
        }
        (rows + leftCount).update(from: scratch, count: rightCount)
        return leftCount
    }
}
