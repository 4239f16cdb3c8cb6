extension ModelTree {
    /// Lays out a nested tree breadth-first (root at 0, children after their parent). Covers are kept only
    /// when every node has one.
    public init(root: TreeNode) {
        var left: [Int] = []
        var right: [Int] = []
        var features: [Int] = []
        var thresholds: [Double] = []
        var defaults: [Bool] = []
        var values: [Double] = []
        var covers: [Double?] = []
        var queue: [TreeNode] = [root]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            switch node {
            case .leaf(let value, let cover):
                left.append(-1)
                right.append(-1)
                features.append(0)
                thresholds.append(0)
                defaults.append(false)
                values.append(Double(value))
                covers.append(cover)
            case .split(let feature, let threshold, let defaultLeft, let leftNode, let rightNode, let cover):
                left.append(queue.count)
                right.append(queue.count + 1)
                queue.append(leftNode)
                queue.append(rightNode)
                features.append(feature)
                thresholds.append(Double(threshold))
                defaults.append(defaultLeft)
                values.append(0)
                covers.append(cover)
            }
        }
        let allCovers = covers.compactMap { $0 }
        self.init(
            leftChildren: left, rightChildren: right, splitFeatures: features, thresholds: thresholds,
            defaultLeft: defaults, missingTypes: nil, leafValues: values,
            covers: allCovers.count == covers.count ? allCovers : nil)
    }
}
