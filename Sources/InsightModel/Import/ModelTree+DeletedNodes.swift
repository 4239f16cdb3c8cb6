extension ModelTree {
    /// The same tree without the nodes no path from the root reaches, the others renumbered in their order (the
    /// root stays 0). XGBoost's `prune` updater (`process_type=update`) turns a split back into a leaf by marking
    /// its children deleted, and keeps them in the arrays (`num_deleted`); scoring never reaches them.
    ///
    /// Nil when the reachable part is not a tree (a child out of range, or reached twice): left to the validator,
    /// which names the node.
    func removingUnreachableNodes() -> (tree: ModelTree, removed: Int)? {
        let count = nodeCount
        guard count > 0, rightChildren.count == count else { return nil }
        var reached = [Bool](repeating: false, count: count)
        reached[0] = true
        var stack = [0]
        while let node = stack.popLast() {
            let left = leftChildren[node]
            let right = rightChildren[node]
            if left == -1 && right == -1 { continue }
            for child in [left, right] {
                guard child > 0, child < count, !reached[child] else { return nil }
                reached[child] = true
                stack.append(child)
            }
        }
        var newIndex = [Int](repeating: -1, count: count)
        var kept: [Int] = []
        for node in 0..<count where reached[node] {
            newIndex[node] = kept.count
            kept.append(node)
        }
        func renumbered(_ child: Int) -> Int { child == -1 ? -1 : newIndex[child] }
        let tree = ModelTree(
            leftChildren: kept.map { renumbered(leftChildren[$0]) },
            rightChildren: kept.map { renumbered(rightChildren[$0]) },
            splitFeatures: kept.map { splitFeatures[$0] }, thresholds: kept.map { thresholds[$0] },
            defaultLeft: kept.map { defaultLeft[$0] }, missingTypes: missingTypes.map { types in kept.map { types[$0] } },
            leafValues: kept.map { leafValues[$0] }, covers: covers.map { covers in kept.map { covers[$0] } })
        return (tree, count - kept.count)
    }
}
