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
    public func topIncreasing(_ limit: Int) -> [String] {
        values.indices
            .filter { values[$0] > 0 }
            .sorted { values[$0] != values[$1] ? values[$0] > values[$1] : $0 < $1 }
            .prefix(limit)
            .map { featureNames[$0] }
    }
}

extension CompiledModel {
    /// Per-feature path contributions for one row; computed only when asked, by the reference walk's rules.
    public func contributions(for row: [Double]) -> PathContributions {
        precondition(row.count == featureCount, "row width must match the model's features")
        var values = [Double](repeating: 0, count: featureCount)
        row.withUnsafeBufferPointer { row in
            values.withUnsafeMutableBufferPointer { values in
                contributionTable.accumulate(row: row, into: values)
            }
        }
        return PathContributions(featureNames: document.featureNames, bias: contributionTable.bias, values: values)
    }
}
