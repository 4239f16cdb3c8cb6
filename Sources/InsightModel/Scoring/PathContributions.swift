/// How much each feature moved one row's margin away from the model's average (Saabas): along each tree's
/// path, the change in node expected value at a split is credited to the split's feature. `bias` plus the
/// sum of `values` is the margin, up to rounding. Holds no feature values, only their effects.
public struct PathContributions: Sendable, Hashable {
    public var featureNames: [String]
    /// Base margin plus every tree's root expected value.
    public var bias: Double
    /// By feature index, in margin units.
    public var values: [Double]

    /// Names of the features that raised the score most, largest first; only positive effects count.
    /// Ties go to the lower feature index.
    public func topIncreasing(_ limit: Int) -> [String] {
        // A few picks from a few dozen features, on every evaluation that reaches `medium`: selection in place
        // allocates only the answer, where filter, sort and map allocated an array each (and grew the first).
        var names: [String] = []
        names.reserveCapacity(Swift.max(0, Swift.min(limit, values.count)))
        var previous = -1
        while names.count < limit {
            var best = -1
            for index in values.indices where values[index] > 0 {
                if previous >= 0 {
                    // Only what comes after the previous pick in the order: larger values first, then lower indices.
                    let comesAfter = values[index] < values[previous] || (values[index] == values[previous] && index > previous)
                    if !comesAfter { continue }
                }
                if best < 0 || values[index] > values[best] { best = index }
            }
            if best < 0 { break }
            names.append(featureNames[best])
            previous = best
        }
        return names
    }
}

extension CompiledModel {
    /// Per-feature path contributions for one row; computed only when asked, by the reference walk's rules.
    /// A model whose margin is its sum divided by `sumDivisor` has its bias and contributions divided the same way.
    public func contributions(for row: [Double]) -> PathContributions {
        precondition(row.count == featureCount, "row width must match the model's features")
        var values = [Double](repeating: 0, count: featureCount)
        row.withUnsafeBufferPointer { row in
            values.withUnsafeMutableBufferPointer { values in
                accumulateContributions(row: row, into: values)
            }
        }
        var bias = contributionTable.bias
        if let divisor = document.sumDivisor.map(Double.init) {
            bias /= divisor
            for index in values.indices { values[index] /= divisor }
        }
        return PathContributions(featureNames: document.featureNames, bias: bias, values: values)
    }

    /// A padded model finds each tree's leaf with its scoring walk and adds that leaf's precomputed steps; a linked
    /// one walks the contribution table. Both give the same bits (the tests compare them).
    func accumulateContributions(row: UnsafeBufferPointer<Double>, into values: UnsafeMutableBufferPointer<Double>) {
        let input = row.baseAddress!
        switch engine {
        case .padded32(let forest):
            Self.withScratch(Float.self, slots: plan.count, trees: forest.treeCount) { widened, leaves in
                plan.widen(input, into: widened, stride: 1)
                _ = forest.margin(widened: widened, positions: leaves, recordingLeaves: true)
                leafPaths!.accumulate(leaves: leaves, treeCount: forest.treeCount, into: values)
            }
        case .padded64(let forest):
            Self.withScratch(Double.self, slots: plan.count, trees: forest.treeCount) { widened, leaves in
                plan.widen(input, into: widened, stride: 1)
                _ = forest.margin(widened: widened, positions: leaves, recordingLeaves: true)
                leafPaths!.accumulate(leaves: leaves, treeCount: forest.treeCount, into: values)
            }
        case .linked32, .linked64:
            contributionTable.accumulate(row: row, into: values)
        }
    }
}
