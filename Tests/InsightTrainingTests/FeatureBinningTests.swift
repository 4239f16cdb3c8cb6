import Testing

@testable import InsightTraining

@Suite struct FeatureBinningTests {
    @Test func everyThresholdReproducesItsBinPartition() {
        let data = SyntheticData.separable(rows: 3000, seed: 41, features: 4)
        // Coarse bins force quantile cuts between distinct values.
        for maxBins in [4, 17, 256] {
            let binning = FeatureBinning.fit(data, maxBins: maxBins)
            for feature in 0..<data.featureCount {
                #expect(binning.valueBinCount(feature) <= maxBins - 1)
                // -1: no value bin goes left. Every value bin going left has no threshold (`TreeGrower` writes
                // that split as this one, sides swapped).
                for splitBin in -1..<(binning.valueBinCount(feature) - 1) {
                    let threshold = binning.threshold(feature: feature, splitBin: splitBin)
                    #expect(threshold.isFinite)
                    for row in 0..<data.rowCount {
                        let value = data.values[row * data.featureCount + feature]
                        if value.isNaN { continue }
                        let byBin = binning.bin(value, feature: feature) <= splitBin
                        if byBin != (value < threshold) {
                            Issue.record("feature \(feature) bin \(splitBin): partition differs")
                            return
                        }
                    }
                }
            }
        }
    }

    @Test func fewDistinctValuesGetOneBinEach() {
        let cuts = FeatureBinning.quantileCuts(sorted: [0, 0, 1, 1, 1, 2, 5], valueBins: 255)
        #expect(cuts == [0.5, 1.5, 3.5])
    }

    @Test func adjacentFloatsCutAtTheUpperValue() {
        let lower: Float = 1
        #expect(FeatureBinning.cut(between: lower, and: lower.nextUp) == lower.nextUp)
    }

    @Test func manyDistinctValuesStayWithinTheBinBudget() {
        let sorted = (0..<10_000).map { Float($0) }
        let cuts = FeatureBinning.quantileCuts(sorted: sorted, valueBins: 255)
        #expect(cuts.count <= 254)
        #expect(cuts.count >= 200)
        #expect(cuts == cuts.sorted())
    }

    @Test func missingValuesHaveTheirOwnBin() {
        let binning = FeatureBinning(cuts: [[1, 2]])
        #expect(binning.bin(.nan, feature: 0) == 3)
        #expect(binning.bin(0.5, feature: 0) == 0)
        #expect(binning.bin(1, feature: 0) == 1)
        #expect(binning.bin(7, feature: 0) == 2)
        #expect(binning.threshold(feature: 0, splitBin: 1) == 2)
        #expect(binning.threshold(feature: 0, splitBin: -1) == -.greatestFiniteMagnitude)
    }
}

@Suite struct ColumnSortingTests {
    @Test func sortedBinningMatchesBinarySearch() throws {
        var values: [Float] = []
        var random = SplitMix64(seed: 77)
        for index in 0..<3000 {
            let special: [Float] = [-0.0, 0, -1e30, 1e30, .nan, -Float.leastNonzeroMagnitude]
            values.append(index % 13 == 0 ? special[index % special.count] : Float(random.nextUnit() * 20 - 10))
            values.append(Float(index % 7))  // low cardinality
        }
        let data = try Dataset(featureNames: ["wide", "narrow"], values: values, labels: [UInt8](repeating: 0, count: 3000))
        for maxBins in [3, 32, 256] {
            let (binning, bins) = FeatureBinning.fitAndBin(data, maxBins: maxBins)
            #expect(bins == binning.binRows(data))
        }
    }

    @Test func keysOrderLikeFloats() {
        let ordered: [Float] = [-.greatestFiniteMagnitude, -2, -Float.leastNonzeroMagnitude, 0, Float.leastNonzeroMagnitude, 1, 3e38]
        let keys = ordered.map(ColumnSorter.key)
        #expect(keys == keys.sorted())
        #expect(ordered.allSatisfy { ColumnSorter.value(ColumnSorter.key($0)) == $0 })
        #expect(ColumnSorter.value(ColumnSorter.key(-0.0)).sign == .minus)
    }
}
