import Dispatch

/// Sums (gradient, hessian) per feature and bin over one node's rows. Rows are binned row-major, so each row's
/// bins (one byte per feature) are loaded together with its gradient pair once, and the per-feature updates are
/// independent of each other.
struct HistogramBuilder: @unchecked Sendable {
    // Unchecked Sendable: plain pointers into the workspace and binned matrix, which outlive every build and are
    // written by at most one thread per feature range.
    let bins: UnsafePointer<UInt8>
    let width: Int
    let gradients: UnsafePointer<SIMD2<Float>>
    /// Histogram offset of each feature.
    let offsets: UnsafePointer<Int>
    /// Features of the current tree (column subsampling), ascending.
    let features: UnsafePointer<Int>
    let featureCount: Int
    let binCounts: UnsafePointer<Int>
    let threads: Int
    /// Column-major bins (`columns[feature * rowCount + row]`) and a buffer for a node's gradients in row order.
    let columns: UnsafePointer<UInt8>
    let rowCount: Int
    let orderedGradients: UnsafeMutablePointer<SIMD2<Float>>
    /// Nodes with fewer rows than this are summed column by column (see `buildByColumns`).
    let columnMajorBelow: Int

    /// Below a quarter of the rows, a node's rows are sparse enough in the row-major matrix that a cache miss per
    /// row costs more than a pass per cache-resident column: 200k x 32, 100 trees, one thread, CPU seconds
    /// (noisy machine) 3.3-3.7 all row-major, 2.5-2.9 with this switch, 2.9-3.6 all column-major.
    static func columnMajorBelow(rowCount: Int) -> Int { rowCount / 4 }

    /// Builds the histogram of `rows[0..<count]` into `histogram`. Threads split the features, never the rows, so
    /// every bin is summed in row order and the result is the same bits for any thread count.
    func build(rows: UnsafePointer<UInt32>, count: Int, into histogram: UnsafeMutablePointer<SIMD2<Double>>) {
        let groups = min(threads, featureCount)
        let byColumns = count < columnMajorBelow
        if byColumns {
            for i in 0..<count { orderedGradients[i] = gradients[Int(rows[i])] }
        }
        if groups <= 1 || count < 4096 {
            build(rows: rows, count: count, into: histogram, featureRange: 0..<featureCount, byColumns: byColumns)
            return
        }
        let job = HistogramJob(rows: rows, histogram: histogram)
        DispatchQueue.concurrentPerform(iterations: groups) { group in
            let lower = featureCount * group / groups
            let upper = featureCount * (group + 1) / groups
            self.build(
                rows: job.rows, count: count, into: job.histogram, featureRange: lower..<upper, byColumns: byColumns)
        }
    }

    private func build(
        rows: UnsafePointer<UInt32>, count: Int, into histogram: UnsafeMutablePointer<SIMD2<Double>>,
        featureRange: Range<Int>, byColumns: Bool
    ) {
        if byColumns {
            buildByColumns(rows: rows, count: count, into: histogram, featureRange: featureRange)
        } else {
            build(rows: rows, count: count, into: histogram, featureRange: featureRange)
        }
    }

    /// For a small node whose rows are scattered over the matrix: one pass per feature over that feature's column
    /// (a few hundred KB, cache-resident) instead of a cache miss per row on the row-major matrix. Each bin still
    /// sums its rows in row order, so the result is the same bits as the row-major loop.
    private func buildByColumns(
        rows: UnsafePointer<UInt32>, count: Int, into histogram: UnsafeMutablePointer<SIMD2<Double>>,
        featureRange: Range<Int>
    ) {
        for k in featureRange {
            let feature = features[k]
            let bins = histogram + offsets[feature]
            bins.update(repeating: .zero, count: binCounts[feature])
            let column = columns + feature &* rowCount
            for i in 0..<count {
                let pair = orderedGradients[i]
                bins[Int(column[Int(rows[i])])] += SIMD2<Double>(Double(pair.x), Double(pair.y))
            }
        }
    }

    private func build(
        rows: UnsafePointer<UInt32>, count: Int, into histogram: UnsafeMutablePointer<SIMD2<Double>>,
        featureRange: Range<Int>
    ) {
        for k in featureRange {
            let feature = features[k]
            (histogram + offsets[feature]).update(repeating: .zero, count: binCounts[feature])
        }
        if featureRange.count == width {
            // Every feature: the offsets are read in order, no indirection through `features`.
            for i in 0..<count {
                let row = Int(rows[i])
                let pair = SIMD2<Double>(Double(gradients[row].x), Double(gradients[row].y))
                let rowBins = bins + row &* width
                for feature in 0..<width {
                    let slot = offsets[feature] &+ Int(rowBins[feature])
                    histogram[slot] += pair
                }
            }
        } else {
            for i in 0..<count {
                let row = Int(rows[i])
                let pair = SIMD2<Double>(Double(gradients[row].x), Double(gradients[row].y))
                let rowBins = bins + row &* width
                for k in featureRange {
                    let feature = features[k]
                    let slot = offsets[feature] &+ Int(rowBins[feature])
                    histogram[slot] += pair
                }
            }
        }
    }

    /// `larger = parent - smaller`: the sibling's histogram without touching its rows.
    func subtract(_ smaller: UnsafePointer<SIMD2<Double>>, from parent: UnsafeMutablePointer<SIMD2<Double>>) {
        for k in 0..<featureCount {
            let feature = features[k]
            let start = offsets[feature]
            for slot in start..<(start + binCounts[feature]) { parent[slot] -= smaller[slot] }
        }
    }
}

private struct HistogramJob: @unchecked Sendable {
    let rows: UnsafePointer<UInt32>
    let histogram: UnsafeMutablePointer<SIMD2<Double>>
}
