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
    /// Per-feature path contributions for one row; computed only when asked (it walks the plain way).
    public func contributions(for row: [Double]) -> PathContributions {
        precondition(row.count == featureCount, "row width must match the model's features")
        let walk = ReferenceWalk(document: document)
        var values = [Double](repeating: 0, count: featureCount)
        var bias = document.baseMargin
        for (index, tree) in document.trees.enumerated() {
            let means = contributionTable.means[index]
            let path = walk.path(of: tree, row: row)
            bias += means[0]
            for step in 1..<max(path.count, 1) {
                values[tree.splitFeatures[path[step - 1]]] += means[path[step]] - means[path[step - 1]]
            }
        }
        return PathContributions(featureNames: document.featureNames, bias: bias, values: values)
    }
}
