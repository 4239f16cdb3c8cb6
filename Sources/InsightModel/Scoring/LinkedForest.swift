/// Trees too deep to pad, as linked nodes whose children sit side by side (right = left + 1). A leaf points to
/// itself through an always-left compare, so a group of trees can be walked a fixed number of levels without
/// asking whether each tree has reached its leaf.
struct LinkedForest<Scalar: BinaryFloatingPoint & Sendable>: Sendable {
    struct Node: Sendable {
        var slot: UInt32
        var left: UInt32
        var threshold: Scalar
    }

    /// Trees walked together (measured 4, 8, 16, 32, 64 on the LightGBM fixture: 16 was fastest).
    static var groupSize: Int { 16 }

    let treeCount: Int
    let nodes: [Node]
    /// Leaf values by node index (0 at splits).
    let values: [Scalar]
    let roots: [UInt32]
    let groupDepths: [Int]
    let baseMargin: Scalar

    init(document: ModelDocument, plan: inout SlotPlan) {
        var nodes: [Node] = []
        var values: [Scalar] = []
        var roots: [UInt32] = []
        var depths: [Int] = []
        for tree in document.trees {
            let root = nodes.count
            roots.append(UInt32(root))
            nodes.append(Node(slot: 0, left: 0, threshold: .infinity))
            values.append(0)
            // (document node, compiled index, depth)
            var queue: [(Int, Int, Int)] = [(0, root, 0)]
            var head = 0
            var deepest = 0
            while head < queue.count {
                let (node, index, depth) = queue[head]
                head += 1
                deepest = max(deepest, depth)
                if tree.isLeaf(node) {
                    nodes[index] = Node(slot: 0, left: UInt32(index), threshold: .infinity)
                    values[index] = Scalar(tree.leafValues[node])
                    continue
                }
                let compiled = plan.compile(
                    feature: tree.splitFeatures[node], threshold: tree.thresholds[node],
                    missing: tree.missingTypes?[node] ?? .nan, defaultLeft: tree.defaultLeft[node],
                    comparison: document.semantics.comparison, as: Scalar.self)
                let left = nodes.count
                nodes[index] = Node(slot: compiled.slot, left: UInt32(left), threshold: compiled.threshold)
                nodes.append(Node(slot: 0, left: 0, threshold: .infinity))
                nodes.append(Node(slot: 0, left: 0, threshold: .infinity))
                values.append(0)
                values.append(0)
                queue.append((tree.leftChildren[node], left, depth + 1))
                queue.append((tree.rightChildren[node], left + 1, depth + 1))
            }
            depths.append(deepest)
        }
        self.treeCount = document.trees.count
        self.nodes = nodes
        self.values = values
        self.roots = roots
        self.groupDepths = stride(from: 0, to: depths.count, by: Self.groupSize).map {
            depths[$0..<min($0 + Self.groupSize, depths.count)].max() ?? 0
        }
        self.baseMargin = Scalar(document.baseMargin)
    }

    @inline(__always)
    func margin(widened row: UnsafePointer<Scalar>, positions: UnsafeMutablePointer<UInt32>) -> Scalar {
        nodes.withUnsafeBufferPointer { nodes in
            values.withUnsafeBufferPointer { values in
                roots.withUnsafeBufferPointer { roots in
                    var sum = baseMargin
                    var first = 0
                    for groupDepth in groupDepths {
                        let end = min(first + Self.groupSize, treeCount)
                        for tree in first..<end { positions[tree] = roots[tree] }
                        // Stop as soon as a level moves no tree (every tree sits on its self-looping leaf):
                        // a row's paths are usually much shorter than the group's deepest tree.
                        var level = 0
                        while level < groupDepth {
                            var moved: UInt32 = 0
                            for tree in first..<end {
                                let current = positions[tree]
                                let node = nodes[Int(current)]
                                let next = node.left &+ bit(!(row[Int(node.slot)] < node.threshold))
                                moved |= next ^ current
                                positions[tree] = next
                            }
                            if moved == 0 { break }
                            level += 1
                        }
                        for tree in first..<end { sum += values[Int(positions[tree])] }
                        first = end
                    }
                    return sum
                }
            }
        }
    }
}
