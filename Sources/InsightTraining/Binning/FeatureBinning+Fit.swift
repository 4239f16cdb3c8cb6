extension FeatureBinning {
    /// Chooses up to `maxBins - 1` value bins per feature from the training data (every distinct value its own bin
    /// when there are few, otherwise greedy quantiles in which a heavy value keeps a bin to itself) and bins every
    /// training row, row-major (`bins[row * featureCount + feature]`): one row's bins share a cache line, so the
    /// histogram loop loads a row once and makes one independent update per feature.
    static func fitAndBin(_ dataset: Dataset, maxBins: Int) -> (binning: FeatureBinning, bins: [UInt8]) {
        let width = dataset.featureCount
        let rowCount = dataset.rowCount
        var cuts: [[Float]] = []
        var bins = [UInt8](repeating: 0, count: rowCount * width)
        var sorter = ColumnSorter(capacity: rowCount)
        var sorted: [Float] = []
        sorted.reserveCapacity(rowCount)
        dataset.values.withUnsafeBufferPointer { values in
            bins.withUnsafeMutableBufferPointer { bins in
                for feature in 0..<width {
                    let featureCuts = sorter.sort(values: values, feature: feature, width: width, rowCount: rowCount) {
                        keys, rows in
                        sorted.removeAll(keepingCapacity: true)
                        for key in keys { sorted.append(ColumnSorter.value(key)) }
                        let featureCuts = quantileCuts(sorted: sorted, valueBins: maxBins - 1)
                        // Missing first; present rows then get their bin walking the sorted order once.
                        let missingBin = UInt8(featureCuts.count + 1)
                        var index = feature
                        for _ in 0..<rowCount {
                            bins[index] = missingBin
                            index += width
                        }
                        var bin = 0
                        for (position, row) in rows.enumerated() {
                            let value = sorted[position]
                            while bin < featureCuts.count, featureCuts[bin] <= value { bin += 1 }
                            bins[Int(row) * width + feature] = UInt8(bin)
                        }
                        return featureCuts
                    }
                    cuts.append(featureCuts)
                }
            }
        }
        return (FeatureBinning(cuts: cuts), bins)
    }

    static func fit(_ dataset: Dataset, maxBins: Int) -> FeatureBinning {
        fitAndBin(dataset, maxBins: maxBins).binning
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
