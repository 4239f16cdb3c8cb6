/// Expected value of every node (leaf values averaged, weighted by cover when the model has covers, else by
/// leaf count), used for Saabas-style path contributions.
struct ContributionTable: Sendable {
    /// `means[tree][node]`
    let means: [[Double]]

    init(document: ModelDocument) {
        means = document.trees.map(Self.means(of:))
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
