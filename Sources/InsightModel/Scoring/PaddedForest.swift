/// Trees padded to complete binary trees of one depth, so children are found by index arithmetic and a node is
/// just (slot, threshold): 8 bytes for float32. Nodes are stored level-major (every tree's level 0, then every
/// tree's level 1, ...), which is also the order the single-row walk visits them. A leaf above the last level
/// becomes always-left padding nodes leading to its value at the leftmost position below it.
struct PaddedForest<Scalar: BinaryFloatingPoint & Sendable>: Sendable {
    struct Node: Sendable {
        var slot: UInt32
        var threshold: Scalar
    }

    /// Deepest padded depth supported (2^depth leaves per tree).
    static var maximumDepth: Int { 10 }

    let depth: Int
    let treeCount: Int
    let nodes: [Node]
    /// The same nodes with `slot * 16`: the element offset of the slot's column in a 16-row batch block.
    let blockNodes: [Node]
    let leaves: [Scalar]
    let baseMargin: Scalar

    init(document: ModelDocument, plan: inout SlotPlan, depth: Int) {
        self.depth = depth
        self.treeCount = document.trees.count
        let treeCount = document.trees.count
        var nodes = [Node](repeating: Node(slot: 0, threshold: .infinity), count: treeCount * ((1 << depth) - 1))
        var leaves = [Scalar](repeating: 0, count: treeCount << depth)
        for (treeIndex, tree) in document.trees.enumerated() {
            // (document node, level, position within the level)
            var stack: [(Int, Int, Int)] = [(0, 0, 0)]
            while let (node, level, position) = stack.popLast() {
                if level == depth {
                    leaves[(treeIndex << depth) + position] = Scalar(tree.leafValues[node])
                    continue
                }
                let slotIndex = treeCount * ((1 << level) - 1) + (treeIndex << level) + position
                if tree.isLeaf(node) {
                    stack.append((node, level + 1, position * 2))
                    continue
                }
                let compiled = plan.compile(
                    feature: tree.splitFeatures[node], threshold: tree.thresholds[node],
                    missing: tree.missingTypes?[node] ?? .nan, defaultLeft: tree.defaultLeft[node],
                    comparison: document.semantics.comparison, as: Scalar.self)
                nodes[slotIndex] = Node(slot: compiled.slot, threshold: compiled.threshold)
                stack.append((tree.leftChildren[node], level + 1, position * 2))
                stack.append((tree.rightChildren[node], level + 1, position * 2 + 1))
            }
        }
        self.nodes = nodes
        self.blockNodes = nodes.map { Node(slot: $0.slot &* 16, threshold: $0.threshold) }
        self.leaves = leaves
        self.baseMargin = Scalar(document.baseMargin)
    }

    /// Trees walked level by level together; after each group its leaves are added, in tree order, while
    /// the next group's independent node visits keep the core busy.
    static var groupSize: Int { 32 }

    /// One widened row: for a group of trees, every tree's level 0, then every tree's level 1, ... so node visits
    /// are independent loads instead of one dependent chain per tree. `positions[t]` holds t * 2^level + the
    /// position within the level, which is also the node's offset in its level block, and doubles (plus the
    /// right bit) from one level to the next. The last level goes straight to the leaf, added in tree order.
    /// With `recordingLeaves`, `positions[t]` ends as the index of tree t's leaf in `leaves` (for `LeafPaths`).
    @inline(__always)
    func margin(
        widened row: UnsafePointer<Scalar>, positions: UnsafeMutablePointer<UInt32>, recordingLeaves: Bool = false
    ) -> Scalar {
        let treeCount = treeCount
        let depth = depth
        return nodes.withUnsafeBufferPointer { nodes in
            leaves.withUnsafeBufferPointer { leaves in
                let leafBase = leaves.baseAddress!
                var sum = baseMargin
                var first = 0
                while first < treeCount {
                    let end = min(first + Self.groupSize, treeCount)
                    var block = nodes.baseAddress!
                    if depth > 1 {
                        for tree in first..<end {
                            let node = block[tree]
                            positions[tree] = UInt32(truncatingIfNeeded: tree) &* 2 | bit(!(row[Int(node.slot)] < node.threshold))
                        }
                        block += treeCount
                    } else {
                        for tree in first..<end { positions[tree] = UInt32(truncatingIfNeeded: tree) }
                    }
                    var level = 1
                    while level < depth - 1 {
                        for tree in first..<end {
                            let index = positions[tree]
                            let node = block[Int(index)]
                            positions[tree] = index &* 2 | bit(!(row[Int(node.slot)] < node.threshold))
                        }
                        block += treeCount << level
                        level += 1
                    }
                    for tree in first..<end {
                        let index = positions[tree]
                        let node = block[Int(index)]
                        let leaf = index &* 2 | bit(!(row[Int(node.slot)] < node.threshold))
                        if recordingLeaves { positions[tree] = leaf }
                        sum += leafBase[Int(leaf)]
                    }
                    first = end
                }
                return sum
            }
        }
    }
}
