/// Expected value of every node (leaf values averaged, weighted by cover when the model has covers, else by
/// leaf count), used for Saabas-style path contributions.
///
/// The trees are also laid out flat, one node record after another, so a contribution walk reads contiguous
/// memory and touches no per-tree arrays (copying a `ModelTree` retains eight of them).
struct ContributionTable: Sendable {
    struct Node: Sendable {
        /// Absolute index of the children in `nodes`; -1 at a leaf.
        var left: Int32
        var right: Int32
        var feature: Int32
        var missing: MissingValueType
        var defaultLeft: Bool
        var threshold: Double
        var mean: Double
    }

    let nodes: [Node]
    let roots: [Int32]
    /// Base margin plus every root's mean, summed in tree order (the order the reference sums in).
    let bias: Double
    let semantics: SplitSemantics

    init(document: ModelDocument) {
        var nodes: [Node] = []
        var roots: [Int32] = []
        var bias = document.baseMargin
        for tree in document.trees {
            let means = Self.means(of: tree)
            let offset = nodes.count
            roots.append(Int32(offset))
            bias += means[0]
            for node in 0..<tree.nodeCount {
                let leaf = tree.leftChildren[node] < 0
                nodes.append(Node(
                    left: leaf ? -1 : Int32(offset + tree.leftChildren[node]),
                    right: leaf ? -1 : Int32(offset + tree.rightChildren[node]),
                    // A leaf's split feature is unchecked by validation and unused: any number may sit there.
                    feature: leaf ? 0 : Int32(tree.splitFeatures[node]), missing: tree.missingTypes?[node] ?? .nan,
                    defaultLeft: tree.defaultLeft[node], threshold: tree.thresholds[node], mean: means[node]))
            }
        }
        self.nodes = nodes
        self.roots = roots
        self.bias = bias
        self.semantics = document.semantics
    }

    /// Adds each split's change in node mean to its feature, tree by tree along the row's path.
    func accumulate(row: UnsafeBufferPointer<Double>, into values: UnsafeMutableBufferPointer<Double>) {
        nodes.withUnsafeBufferPointer { nodes in
            for root in roots {
                var index = Int(root)
                while nodes[index].left >= 0 {
                    let node = nodes[index]
                    let next = Int(goesLeft(node, row[Int(node.feature)]) ? node.left : node.right)
                    values[Int(node.feature)] += nodes[next].mean - node.mean
                    index = next
                }
            }
        }
    }

    /// The reference walk's rule (`ReferenceWalk.goesLeft`) over a flat node.
    @inline(__always)
    private func goesLeft(_ node: Node, _ raw: Double) -> Bool {
        switch semantics.precision {
        case .float32:
            var x = Float(raw)
            if x.isNaN && node.missing != .nan { x = 0 }
            if (node.missing == .nan && x.isNaN) || (node.missing == .zero && x.magnitude <= Float(1e-35)) { return node.defaultLeft }
            return semantics.comparison == .lessThan ? x < Float(node.threshold) : x <= Float(node.threshold)
        case .float64:
            var x = raw
            if x.magnitude <= ReferenceWalk.zeroThreshold { x = 0 }
            if x.isNaN && node.missing != .nan { x = 0 }
            if (node.missing == .nan && x.isNaN) || (node.missing == .zero && x.magnitude <= ReferenceWalk.zeroThreshold) {
                return node.defaultLeft
            }
            return semantics.comparison == .lessThan ? x < node.threshold : x <= node.threshold
        }
    }

    static func means(of tree: ModelTree) -> [Double] {
        var mean = [Double](repeating: 0, count: tree.nodeCount)
        var weight = [Double](repeating: 0, count: tree.nodeCount)
        // Children before parents: reverse of a pre-order listing.
        var order: [Int] = []
        var stack = [0]
        while let node = stack.popLast() {
            order.append(node)
            if !tree.isLeaf(node) {
                stack.append(tree.leftChildren[node])
                stack.append(tree.rightChildren[node])
            }
        }
        for node in order.reversed() {
            if tree.isLeaf(node) {
                mean[node] = tree.leafValues[node]
                weight[node] = tree.covers?[node] ?? 1
            } else {
                let left = tree.leftChildren[node]
                let right = tree.rightChildren[node]
                let total = weight[left] + weight[right]
                mean[node] = total > 0
                    ? (mean[left] * weight[left] + mean[right] * weight[right]) / total
                    : (mean[left] + mean[right]) / 2
                weight[node] = tree.covers?[node] ?? total
            }
        }
        return mean
    }
}
