import Testing
@testable import InsightModel

@Suite struct ContributionTests {
    @Test func contributionsFollowThePathAndSumToTheMargin() throws {
        // Root splits on b (feature 1) at 2; left is a leaf (-1, cover 3); right splits on a at 0.5 into 2 and 4.
        let document = ModelDocument.float32(
            featureNames: ["a", "b"], baseMargin: 0.5,
            trees: [
                .split(
                    feature: 1, threshold: 2, defaultLeft: true, left: .leaf(value: -1, cover: 3),
                    right: .split(
                        feature: 0, threshold: 0.5, defaultLeft: false, left: .leaf(value: 2, cover: 1),
                        right: .leaf(value: 4, cover: 1), cover: 2),
                    cover: 5)
            ],
            thresholds: RiskThresholds(medium: 0.2, high: 0.6), metadata: HandModels.metadata())
        let model = try CompiledModel(document: document)
        // Means: right node (2*1 + 4*1)/2 = 3; root (-1*3 + 3*2)/5 = 0.6.
        let row = [0.7, 5.0]
        let contributions = model.contributions(for: row)
        #expect(abs(contributions.bias - (0.5 + 0.6)) < 1e-12)
        #expect(abs(contributions.values[1] - (3 - 0.6)) < 1e-12)
        #expect(abs(contributions.values[0] - (4 - 3)) < 1e-12)
        #expect(abs(contributions.bias + contributions.values.reduce(0, +) - model.margin(for: row)) < 1e-6)
        #expect(contributions.topIncreasing(1) == ["b"])
        #expect(contributions.topIncreasing(5) == ["b", "a"])
        // Going left on b lowers the score: b no longer counts as pushing it up.
        #expect(model.contributions(for: [0.7, 1.0]).topIncreasing(5).isEmpty)
    }

    @Test func theTopIncreasingFeaturesAreTheLargestPositiveOnesWithTiesToTheLowerIndex() {
        // Against the plain definition (filter, sort, prefix), on vectors with many ties, zeros, negatives and NaN.
        var generator = SystemRandomNumberGenerator()
        let names = (0..<12).map { "f\($0)" }
        for _ in 0..<2000 {
            let values = (0..<12).map { _ -> Double in
                switch Int.random(in: 0..<6, using: &generator) {
                case 0: 0
                case 1: -Double(Int.random(in: 1...3, using: &generator))
                case 2: .nan
                default: Double(Int.random(in: 1...4, using: &generator))
                }
            }
            let contributions = PathContributions(featureNames: names, bias: 0, values: values)
            for limit in [0, 1, 3, 12, 20] {
                let expected = values.indices.filter { values[$0] > 0 }
                    .sorted { values[$0] != values[$1] ? values[$0] > values[$1] : $0 < $1 }
                    .prefix(limit).map { names[$0] }
                #expect(contributions.topIncreasing(limit) == expected)
            }
        }
    }

    @Test(Fixtures.needed) func contributionsOnTheFixtureModelAddUpToItsMargins() throws {
        let model = try CompiledModel(document: Fixtures.xgboostModel())
        let rows = try Fixtures.heldOut().matrix(for: model.featureNames)
        for index in stride(from: 0, to: 2000, by: 97) {
            let row = Array(rows.row(index))
            let contributions = model.contributions(for: row)
            let total = contributions.bias + contributions.values.reduce(0, +)
            #expect(abs(total - model.margin(for: row)) < 1e-4)
        }
    }

    /// Padded models read contributions from the leaves their scoring walk reaches; that must give exactly the bits
    /// of the contribution table's own walk (the definition), on random models of several shapes and awkward rows.
    @Test(arguments: [
        (float32: true, maxDepth: 1), (float32: true, maxDepth: 4), (float32: true, maxDepth: 7),
        (float32: false, maxDepth: 3), (float32: false, maxDepth: 6), (float32: true, maxDepth: 12),
    ])
    func leafPathContributionsMatchTheTableWalkBitForBit(float32: Bool, maxDepth: Int) throws {
        var random = RandomModels(generator: SplitMix64(state: UInt64(maxDepth) &* 104_729 &+ (float32 ? 3 : 4)))
        for _ in 0..<30 {
            let document = random.model(float32: float32, maxDepth: maxDepth)
            let model = try CompiledModel(document: document)
            #expect((model.leafPaths != nil) == model.layoutDescription.hasPrefix("padded"))
            for _ in 0..<25 {
                let row = random.row(features: document.featureNames.count)
                #expect(Self.contributionBits(model, row, fast: true) == Self.contributionBits(model, row, fast: false))
            }
        }
    }

    @Test(Fixtures.needed) func leafPathContributionsMatchTheTableWalkOnTheFixtureModels() throws {
        // The XGBoost fixture compiles padded; the LightGBM one's deeper trees compile linked (the table walk).
        for (document, padded) in [(try Fixtures.xgboostModel(), true), (try Fixtures.lightGBMModel(), false)] {
            let model = try CompiledModel(document: document)
            #expect((model.leafPaths != nil) == padded)
            let rows = try Fixtures.heldOut().matrix(for: model.featureNames)
            for index in stride(from: 0, to: rows.rowCount, by: 41) {
                let row = Array(rows.row(index))
                #expect(Self.contributionBits(model, row, fast: true) == Self.contributionBits(model, row, fast: false))
            }
        }
    }

    private static func contributionBits(_ model: CompiledModel, _ row: [Double], fast: Bool) -> [UInt64] {
        var values = [Double](repeating: 0, count: model.featureCount)
        row.withUnsafeBufferPointer { row in
            values.withUnsafeMutableBufferPointer { values in
                if fast {
                    model.accumulateContributions(row: row, into: values)
                } else {
                    model.contributionTable.accumulate(row: row, into: values)
                }
            }
        }
        return values.map(\.bitPattern)
    }
}
