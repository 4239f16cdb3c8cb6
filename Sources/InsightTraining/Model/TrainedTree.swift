/// One tree as the trainer grew it: nodes breadth-first, node 0 the root. A split sends a value left iff
/// `x < threshold` (float32), a missing value (NaN) to the side `defaultLeft` names.
public struct TrainedTree: Sendable, Hashable {
    public struct Node: Sendable, Hashable {
        /// Feature index, or -1 at a leaf.
        public var feature: Int
        /// Exactly representable float32; ignored at a leaf.
        public var threshold: Float
        public var defaultLeft: Bool
        public var left: Int
        public var right: Int
        /// Leaf weight, shrinkage applied; 0 at a split.
        public var value: Float
        /// Sum of hessians of the training rows that reached the node.
        public var cover: Double
        /// Loss reduction of the split; 0 at a leaf.
        public var gain: Double

        public var isLeaf: Bool { feature < 0 }

        /// Value bins 0...splitBin go left; the same partition as the threshold, on binned rows.
        var splitBin: Int
        var missingBin: Int
    }

    public var nodes: [Node]

    public var leafCount: Int { nodes.reduce(0) { $0 + ($1.isLeaf ? 1 : 0) } }

    public var depth: Int {
        func depth(of node: Int) -> Int {
            nodes[node].isLeaf ? 0 : 1 + max(depth(of: nodes[node].left), depth(of: nodes[node].right))
        }
        return depth(of: 0)
    }

    /// The leaf value reached by one row of float32 values (NaN = missing): the scorer's reference walk.
    public func leafValue(for row: UnsafeBufferPointer<Float>) -> Float {
        nodes.withUnsafeBufferPointer { nodes in
            var index = 0
            while true {
                let node = nodes[index]
                if node.feature < 0 { return node.value }
                let value = row[node.feature]
                let goesLeft = value.isNaN ? node.defaultLeft : value < node.threshold
                index = goesLeft ? node.left : node.right
            }
        }
    }
}
