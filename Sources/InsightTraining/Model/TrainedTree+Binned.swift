extension TrainedTree {
    /// The leaf value for a binned training row; the same leaf as `leafValue(for:)` on the row's float values,
    /// because the thresholds are the bin edges.
    @inline(__always)
    func leafValue(binnedRow: UnsafePointer<UInt8>) -> Float {
        nodes.withUnsafeBufferPointer { nodes in
            var index = 0
            while true {
                let node = nodes[index]
                if node.feature < 0 { return node.value }
                let bin = Int(binnedRow[node.feature])
                let goesLeft = bin == node.missingBin ? node.defaultLeft : bin <= node.splitBin
                index = goesLeft ? node.left : node.right
            }
        }
    }
}
