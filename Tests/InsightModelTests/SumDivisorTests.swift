import FoundationEssentials
import Testing
@testable import InsightModel

/// `sumDivisor`: the margin is the sum of base margin and leaves divided once, as LightGBM averages a random forest.
@Suite struct SumDivisorTests {
    /// Every compiled path (single row and batch; padded and linked; float32 and float64) divides exactly as the
    /// reference walk does.
    @Test(arguments: [
        (float32: true, maxDepth: 1), (float32: true, maxDepth: 6), (float32: true, maxDepth: 13),
        (float32: false, maxDepth: 5), (float32: false, maxDepth: 12),
    ])
    func everyFastPathDividesAsTheReferenceWalk(float32: Bool, maxDepth: Int) throws {
        var random = RandomModels(generator: SplitMix64(state: UInt64(maxDepth) &* 6151 &+ (float32 ? 5 : 6)))
        for _ in 0..<30 {
            let document = random.model(float32: float32, maxDepth: maxDepth, dividingTheSum: true)
            var undivided = document
            undivided.sumDivisor = nil
            let divisor = try #require(document.sumDivisor)
            let model = try CompiledModel(document: document)
            let walk = ReferenceWalk(document: document)
            let sumWalk = ReferenceWalk(document: undivided)
            var rows = FeatureMatrix(columnCount: document.featureNames.count)
            for _ in 0..<37 { rows.append(row: random.row(features: document.featureNames.count)) }
            let batch = model.margins(for: rows)
            for index in 0..<rows.rowCount {
                let row = Array(rows.row(index))
                let sum = sumWalk.margin(for: row)
                let expected = float32 ? Double(Float(sum) / Float(divisor)) : sum / Double(divisor)
                #expect(walk.margin(for: row).bitPattern == expected.bitPattern)
                #expect(model.margin(for: row).bitPattern == expected.bitPattern)
                #expect(batch[index].bitPattern == expected.bitPattern)
                #expect(model.score(row).margin.bitPattern == expected.bitPattern)
            }
        }
    }

    /// Contributions are the undivided ones divided by the same number, on the padded (leaf paths) and linked
    /// (table walk) layouts alike, and still add up to the margin.
    @Test(arguments: [(float32: true, maxDepth: 4), (float32: false, maxDepth: 12)])
    func contributionsAreDividedToo(float32: Bool, maxDepth: Int) throws {
        var random = RandomModels(generator: SplitMix64(state: UInt64(maxDepth) &* 31 &+ 9))
        for _ in 0..<20 {
            let document = random.model(float32: float32, maxDepth: maxDepth, dividingTheSum: true)
            var undivided = document
            undivided.sumDivisor = nil
            let divisor = Double(try #require(document.sumDivisor))
            let model = try CompiledModel(document: document)
            let plain = try CompiledModel(document: undivided)
            for _ in 0..<20 {
                let row = random.row(features: document.featureNames.count).map { $0.isFinite ? $0 : 0.5 }
                let divided = model.contributions(for: row)
                let whole = plain.contributions(for: row)
                #expect(divided.bias == whole.bias / divisor)
                #expect(divided.values == whole.values.map { $0 / divisor })
                let total = divided.bias + divided.values.reduce(0, +)
                #expect(abs(total - model.margin(for: row)) <= 1e-3 * max(1, abs(model.margin(for: row))))
            }
        }
    }

    @Test(arguments: [0, -3, ModelValidator.maximumSumDivisor + 1])
    func refusesADivisorThatIsNotAPositiveWholeFloat32(divisor: Int) {
        var document = HandModels.document()
        document.sumDivisor = divisor
        #expect(throws: ModelValidationError(.badSumDivisor(divisor, limit: ModelValidator.maximumSumDivisor))) {
            try ModelValidator.validate(document)
        }
    }

    /// The field is optional: documents without it keep their bytes, and one with it survives a round trip.
    @Test func isWrittenOnlyWhenPresent() throws {
        let plain = try HandModels.document().jsonData()
        #expect(!String(decoding: plain, as: UTF8.self).contains("sumDivisor"))
        var document = HandModels.document()
        document.sumDivisor = 7
        let data = try document.jsonData()
        #expect(String(decoding: data, as: UTF8.self).contains("\"sumDivisor\":7"))
        #expect(try ModelDocument(jsonData: data) == document)
    }

    /// LightGBM sums a random forest's trees, then divides by the iteration count: dividing each leaf first rounds
    /// differently (here 0.1 + 0.2 + 0.3 over 3 trees).
    @Test func importsALightGBMRandomForestAsItsSumOverTheIterations() throws {
        let leaves = [0.1, 0.2, 0.3]
        var text = ImporterRefusalTests.lightGBM()
            .replacingOccurrences(of: "tree_sizes=100", with: "tree_sizes=100 100 100")
            .replacingOccurrences(of: "feature_names=a b", with: "feature_names=a b\naverage_output")
            .replacingOccurrences(of: "leaf_value=-0.25 0.75", with: "leaf_value=-0.25 \(leaves[0])")
        let more = (1..<3).map { ImporterRefusalTests.lightGBMTree($0).replacingOccurrences(of: "leaf_value=-0.25 0.75", with: "leaf_value=-0.25 \(leaves[$0])") }
        text = text.replacingOccurrences(of: "\n\n\nend of trees", with: "\n\n" + more.joined(separator: "\n\n") + "\n\nend of trees")
        let document = try LightGBMImporter.importModel(text: text, options: ImporterRefusalTests.options)
        #expect(document.sumDivisor == 3)
        #expect(document.trees.map { $0.leafValues.last } == leaves)
        let lightGBM = (0 + leaves[0] + leaves[1] + leaves[2]) / 3
        let leafByLeaf = leaves[0] / 3 + leaves[1] / 3 + leaves[2] / 3
        #expect(lightGBM != leafByLeaf, "the example must tell the two apart")
        #expect(try CompiledModel(document: document).margin(for: [0, 0.6]) == lightGBM)
    }
}
