extension FeatureBinning {
    /// Chooses up to `maxBins - 1` value bins per feature from the training data: every distinct value its own
    /// bin when there are few, otherwise greedy quantiles in which a heavy value keeps a bin to itself.
    static func fit(_ dataset: Dataset, maxBins: Int) -> FeatureBinning {
        let valueBins = maxBins - 1
        var cuts: [[Float]] = []
        var column: [Float] = []
        column.reserveCapacity(dataset.rowCount)
        dataset.values.withUnsafeBufferPointer { values in
            for feature in 0..<dataset.featureCount {
                column.removeAll(keepingCapacity: true)
                var index = feature
                for _ in 0..<dataset.rowCount {
                    let value = values[index]
                    if !value.isNaN { column.append(value) }
                    index += dataset.featureCount
                }
                column.sort()
                cuts.append(Self.quantileCuts(sorted: column, valueBins: valueBins))
            }
        }
        return FeatureBinning(cuts: cuts)
    }

    static func quantileCuts(sorted: [Float], valueBins: Int) -> [Float] {
        guard !sorted.isEmpty else { return [] }
        var distinct: [Float] = []
        var counts: [Int] = []
        for value in sorted {
            if let last = distinct.last, last == value {
                counts[counts.count - 1] += 1
            } else {
                distinct.append(value)
                counts.append(1)
            }
        }
        var cuts: [Float] = []
        if distinct.count <= valueBins {
            for index in 1..<max(distinct.count, 1) { cuts.append(cut(between: distinct[index - 1], and: distinct[index])) }
            return cuts
        }
        var remainingRows = Double(sorted.count)
        var remainingBins = Double(valueBins)
        var accumulated = 0
        for index in 0..<(distinct.count - 1) where remainingBins > 1 {
            accumulated += counts[index]
            let target = remainingRows / remainingBins
            // Close the bin once it holds its share, or when the next value alone would overfill it badly.
            let next = Double(counts[index + 1])
            if Double(accumulated) >= target || (Double(accumulated) + next > 1.5 * target && Double(accumulated) >= 0.5 * target) {
                cuts.append(cut(between: distinct[index], and: distinct[index + 1]))
                remainingRows -= Double(accumulated)
                remainingBins -= 1
                accumulated = 0
            }
        }
        return cuts
    }

    /// A float32 cut c with lower < c <= upper, at the midpoint where float32 allows, so that unseen values
    /// between two training values split evenly.
    static func cut(between lower: Float, and upper: Float) -> Float {
        let middle = Float((Double(lower) + Double(upper)) / 2)
        return middle > lower && middle <= upper ? middle : upper
    }

    /// Bins every row, row-major (`bins[row * featureCount + feature]`): one row's bins share a cache line, so the
    /// histogram loop loads a row once and makes one independent update per feature.
    func binRows(_ dataset: Dataset) -> [UInt8] {
        let width = dataset.featureCount
        var bins = [UInt8](repeating: 0, count: dataset.rowCount * width)
        dataset.values.withUnsafeBufferPointer { values in
            bins.withUnsafeMutableBufferPointer { output in
                for row in 0..<dataset.rowCount {
                    for feature in 0..<width {
                        output[row * width + feature] = UInt8(bin(values[row * width + feature], feature: feature))
                    }
                }
            }
        }
        return bins
    }
}
