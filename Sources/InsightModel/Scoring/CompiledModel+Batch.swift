extension CompiledModel {
    /// Margins for many rows on the calling thread: the batch fast path.
    public func margins(for rows: FeatureMatrix) -> [Double] {
        precondition(rows.columnCount == featureCount, "row width must match the model's features")
        let rowCount = rows.rowCount
        var output = [Double](repeating: 0, count: rowCount)
        rows.values.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                guard let base = input.baseAddress else { return }
                switch engine {
                case .padded32(let forest):
                    marginsInBlocks(forest, input: base, rowCount: rowCount, output: output.baseAddress!)
                default:
                    for row in 0..<rowCount {
                        output[row] = margin(
                            for: UnsafeBufferPointer(start: base + row * featureCount, count: featureCount))
                    }
                }
            }
        }
        return output
    }

    private func marginsInBlocks(
        _ forest: PaddedForest<Float>, input: UnsafePointer<Double>, rowCount: Int, output: UnsafeMutablePointer<Double>
    ) {
        let blockRows = PaddedForest<Float>.blockRows
        let width = featureCount
        withUnsafeTemporaryAllocation(of: Float.self, capacity: plan.count * blockRows) { columns in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: blockRows) { sums in
                withUnsafeTemporaryAllocation(
                    of: UInt32.self, capacity: blockRows * PaddedForest<Float>.batchGroupSize
                ) { positions in
                    var first = 0
                    while first < rowCount {
                        let count = min(blockRows, rowCount - first)
                        for row in 0..<blockRows {
                            // A short last block repeats its last row; those results are dropped.
                            let source = input + (first + min(row, count - 1)) * width
                            plan.widen(source, into: columns.baseAddress! + row, stride: blockRows)
                        }
                        forest.margins(block: columns.baseAddress!, into: sums.baseAddress!, positions: positions.baseAddress!)
                        for row in 0..<count { output[first + row] = margin(fromSum: sums[row]) }
                        first += count
                    }
                }
            }
        }
    }
}
