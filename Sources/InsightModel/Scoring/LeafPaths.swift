/// Every leaf's path contributions, written out ahead of time for a padded forest: once the padded walk has found
/// a row's leaf in each tree, its contributions are a short run of (feature, change in node mean) pairs to add,
/// with no second walk and none of its missing-value branches.
///
/// Indexed like the padded forest's leaves, `tree << depth | position`. A leaf above the last level sits at the
/// leftmost position below it (where the padding's always-left nodes lead); the other positions are unreachable
/// and have no entries.
struct LeafPaths: Sendable {
    /// A leaf's steps, root first, are `features` and `deltas` at `starts[leaf]..<starts[leaf + 1]`.
    let starts: [UInt32]
    let features: [Int32]
    let deltas: [Double]

    init(document: ModelDocument, depth: Int) {
        var starts = [UInt32](repeating: 0, count: (document.trees.count << depth) + 1)
        var steps = [[(feature: Int32, delta: Double)]](repeating: [], count: document.trees.count << depth)
        for (treeIndex, tree) in document.trees.enumerated() {
            let means = ContributionTable.means(of: tree)
            // (document node, level, position within the level, steps from the root)
            var stack: [(Int, Int, Int, [(feature: Int32, delta: Double)])] = [(0, 0, 0, [])]
            while let (node, level, position, path) = stack.popLast() {
                if tree.isLeaf(node) {
                    steps[(treeIndex << depth) | (position << (depth - level))] = path
                    continue
                }
                let feature = Int32(tree.splitFeatures[node])
                for (child, childPosition) in [(tree.leftChildren[node], position * 2), (tree.rightChildren[node], position * 2 + 1)] {
                    // The same subtraction as `ContributionTable.accumulate`, so the sums agree to the bit.
                    stack.append((child, level + 1, childPosition, path + [(feature, means[child] - means[node])]))
                }
            }
        }
        var features: [Int32] = []
        var deltas: [Double] = []
        for (leaf, path) in steps.enumerated() {
            for step in path {
                features.append(step.feature)
                deltas.append(step.delta)
            }
            starts[leaf + 1] = UInt32(features.count)
        }
        self.starts = starts
        self.features = features
        self.deltas = deltas
    }

    /// Adds the steps of each tree's leaf, in tree order and root first within a tree: the order the walk adds in.
    func accumulate(leaves: UnsafePointer<UInt32>, treeCount: Int, into values: UnsafeMutableBufferPointer<Double>) {
        starts.withUnsafeBufferPointer { starts in
            features.withUnsafeBufferPointer { features in
                deltas.withUnsafeBufferPointer { deltas in
                    for tree in 0..<treeCount {
                        let leaf = Int(leaves[tree])
                        for step in Int(starts[leaf])..<Int(starts[leaf + 1]) {
                            values[Int(features[step])] += deltas[step]
                        }
                    }
                }
            }
        }
    }
}
