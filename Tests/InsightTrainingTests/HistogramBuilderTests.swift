import Testing

@testable import InsightTraining

@Suite struct HistogramBuilderTests {
    /// Builds one node's histogram with the given layout switch and thread count.
    func histogram(columnMajorBelow: Int, threads: Int, rows nodeRows: [UInt32]) -> [SIMD2<Double>] {
        let data = SyntheticData.separable(rows: 6000, seed: 71, features: 5)
        let (binning, bins) = FeatureBinning.fitAndBin(data, maxBins: 64)
        let columns = GBDTTrainer.transpose(bins, rows: data.rowCount, columns: data.featureCount)
        var random = SplitMix64(seed: 72)
        let gradients = (0..<data.rowCount).map { _ in SIMD2<Float>(Float(random.nextUnit() - 0.5), Float(random.nextUnit())) }
        var ordered = [SIMD2<Float>](repeating: .zero, count: data.rowCount)
        var result = [SIMD2<Double>](repeating: .zero, count: binning.totalBins)
        let binCounts = (0..<data.featureCount).map { binning.valueBinCount($0) + 1 }
        let features = Array(0..<data.featureCount)
        bins.withUnsafeBufferPointer { bins in
            columns.withUnsafeBufferPointer { columns in
                gradients.withUnsafeBufferPointer { gradients in
                    ordered.withUnsafeMutableBufferPointer { ordered in
                        binning.offsets.withUnsafeBufferPointer { offsets in
                            binCounts.withUnsafeBufferPointer { binCounts in
                                features.withUnsafeBufferPointer { features in
                                    nodeRows.withUnsafeBufferPointer { nodeRows in
                                        result.withUnsafeMutableBufferPointer { result in
                                            let builder = HistogramBuilder(
                                                bins: bins.baseAddress!, width: data.featureCount,
                                                gradients: gradients.baseAddress!, offsets: offsets.baseAddress!,
                                                features: features.baseAddress!, featureCount: features.count,
                                                binCounts: binCounts.baseAddress!, threads: threads,
                                                columns: columns.baseAddress!, rowCount: data.rowCount,
                                                orderedGradients: ordered.baseAddress!, columnMajorBelow: columnMajorBelow)
                                            builder.build(
                                                rows: nodeRows.baseAddress!, count: nodeRows.count, into: result.baseAddress!)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return result
    }

    @Test func rowAndColumnLayoutsGiveTheSameBits() {
        let nodeRows = (0..<6000).filter { $0 % 5 != 1 }.map(UInt32.init)
        let byRows = histogram(columnMajorBelow: 0, threads: 1, rows: nodeRows)
        let byColumns = histogram(columnMajorBelow: .max, threads: 1, rows: nodeRows)
        let threaded = histogram(columnMajorBelow: .max, threads: 3, rows: nodeRows)
        #expect(byRows.map(\.x.bitPattern) == byColumns.map(\.x.bitPattern))
        #expect(byRows.map(\.y.bitPattern) == byColumns.map(\.y.bitPattern))
        #expect(byRows.map(\.x.bitPattern) == threaded.map(\.x.bitPattern))
        #expect(byRows.contains { $0.y > 0 })
    }
}
