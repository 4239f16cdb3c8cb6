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

    /// Builds the histogram of `rows[0..<count]` into `histogram`. Threads split the features, never the rows, so
    /// every bin is summed in row order and the result is the same bits for any thread count.
    func build(rows: UnsafePointer<UInt32>, count: Int, into histogram: UnsafeMutablePointer<SIMD2<Double>>) {
        let groups = min(threads, featureCount)
        if groups <= 1 || count < 4096 {
            build(rows: rows, count: count, into: histogram, featureRange: 0..<featureCount)
            return
        }
        let job = HistogramJob(rows: rows, histogram: histogram)
        DispatchQueue.concurrentPerform(iterations: groups) { group in
            let lower = featureCount * group / groups
            let upper = featureCount * (group + 1) / groups
            self.build(rows: job.rows, count: count, into: job.histogram, featureRange: lower..<upper)
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
