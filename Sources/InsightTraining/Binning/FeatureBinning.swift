/// Quantile bins for every feature. Feature `f` has `cuts[f].count + 1` value bins and one more for missing
/// values: value `x` falls in bin `#{c in cuts[f] : c <= x}`, so "bin <= b" is exactly `x < cuts[f][b]`. The cuts
/// are float32 values, so the float32 comparison the scorer makes reproduces the training-time partition.
struct FeatureBinning: Sendable, Equatable {
    let cuts: [[Float]]
    /// First histogram slot of each feature; the feature's slots are its value bins then its missing bin.
    let offsets: [Int]
    let totalBins: Int

    init(cuts: [[Float]]) {
        self.cuts = cuts
        var offsets: [Int] = []
        var total = 0
        for featureCuts in cuts {
            offsets.append(total)
            total += featureCuts.count + 2
        }
        self.offsets = offsets
        self.totalBins = total
    }

    var featureCount: Int { cuts.count }

    func valueBinCount(_ feature: Int) -> Int { cuts[feature].count + 1 }

    func missingBin(_ feature: Int) -> Int { cuts[feature].count + 1 }

    func bin(_ value: Float, feature: Int) -> Int {
        if value.isNaN { return missingBin(feature) }
        // Upper bound: the number of cuts <= value.
        let featureCuts = cuts[feature]
        var low = 0
        var high = featureCuts.count
        while low < high {
            let middle = (low + high) / 2
            if featureCuts[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The float32 threshold for "value bins 0...splitBin go left": the bin's upper cut. For -1, "no value bin goes
    /// left", it is the lowest finite float, which no finite value is below. "Every value bin goes left" has none:
    /// no float32 is greater than the largest finite one, which a training value may be (`TreeGrower` writes such
    /// a split the other way round).
    func threshold(feature: Int, splitBin: Int) -> Float {
        precondition((-1..<cuts[feature].count).contains(splitBin), "no float32 threshold sends every value bin left")
        return splitBin < 0 ? -Float.greatestFiniteMagnitude : cuts[feature][splitBin]
    }
}
