import Testing
@testable import InsightModel

@Suite struct ScorerPropertyTests {
    /// Random models (shallow ones compile padded, deep ones linked) and awkward rows: the single-row and batch
    /// fast paths return exactly the bits of the reference walk.
    @Test(arguments: [
        (float32: true, maxDepth: 6), (float32: true, maxDepth: 13), (float32: false, maxDepth: 5),
        (float32: false, maxDepth: 12), (float32: true, maxDepth: 1),
    ])
    func fastPathsReturnTheReferenceBits(float32: Bool, maxDepth: Int) throws {
        var random = RandomModels(generator: SplitMix64(state: UInt64(maxDepth) &* 7919 &+ (float32 ? 1 : 2)))
        for _ in 0..<40 {
            try Self.expectFastPathsMatchTheWalk(random.model(float32: float32, maxDepth: maxDepth), rowsFrom: &random)
        }
    }

    /// 37 random rows scored one by one and as a batch: both give the reference walk's bits.
    static func expectFastPathsMatchTheWalk(_ document: ModelDocument, rowsFrom random: inout RandomModels) throws {
        let model = try CompiledModel(document: document)
        let walk = ReferenceWalk(document: document)
        var rows = FeatureMatrix(columnCount: document.featureNames.count)
        for _ in 0..<37 { rows.append(row: random.row(features: document.featureNames.count)) }
        let batch = model.margins(for: rows)
        for index in 0..<rows.rowCount {
            let row = Array(rows.row(index))
            let expected = walk.margin(for: row).bitPattern
            #expect(model.margin(for: row).bitPattern == expected, "\(row)")
            #expect(batch[index].bitPattern == expected, "\(row)")
        }
    }

    /// Either comparison in either precision, padded and linked: infinite thresholds (drawn one split in twelve)
    /// route as the reference walk does, missing values and infinite inputs included.
    @Test(arguments: [true, false], [SplitComparison.lessThan, .lessThanOrEqual])
    func infiniteThresholdsRouteAsTheReferenceWalkDoes(float32: Bool, comparison: SplitComparison) throws {
        var random = RandomModels(generator: SplitMix64(state: float32 ? 11 : 12))
        for maxDepth in [3, 12] {
            for _ in 0..<30 {
                var document = random.model(float32: float32, maxDepth: maxDepth)
                document.semantics.comparison = comparison
                try Self.expectFastPathsMatchTheWalk(document, rowsFrom: &random)
            }
        }
    }

    @Test func treesDeeperThanThePaddingLimitCompileLinkedAndStayExact() throws {
        // A chain 12 splits deep: x0 < 1, x0 < 2, ... each right child a leaf.
        var node = TreeNode.leaf(value: 100)
        for level in stride(from: 12, to: 0, by: -1) {
            node = .split(
                feature: level % 2, threshold: Float(level), defaultLeft: level % 3 == 0, left: .leaf(value: Float(level)),
                right: node)
        }
        let document = ModelDocument.float32(
            featureNames: ["x0", "x1"], baseMargin: 0.5, trees: [node, HandModels.stump().asTreeNode()],
            thresholds: RiskThresholds(medium: 0.2, high: 0.6), metadata: HandModels.metadata())
        let model = try CompiledModel(document: document)
        #expect(model.layoutDescription.hasPrefix("linked float32"))
        let walk = ReferenceWalk(document: document)
        var random = RandomModels(generator: SplitMix64(state: 7))
        for _ in 0..<200 {
            let row = [Double.random(in: -1...14, using: &random.generator).rounded(), random.row(features: 1)[0]]
            #expect(model.margin(for: row).bitPattern == walk.margin(for: row).bitPattern)
        }
        let shallow = try CompiledModel(document: random.model(float32: true, maxDepth: 4))
        #expect(shallow.layoutDescription.hasPrefix("padded float32"))
    }

    @Test func lessOrEqualAtInfinityRoutesMissingByDefaultDirection() throws {
        // x <= +inf: every number goes left, NaN follows the missing rule (here: NaN type, default right).
        let tree = ModelTree(
            leftChildren: [1, -1, -1], rightChildren: [2, -1, -1], splitFeatures: [0, 0, 0],
            thresholds: [.infinity, 0, 0], defaultLeft: [false, false, false], missingTypes: [.nan, .nan, .nan],
            leafValues: [0, 1, 2])
        let document = ModelDocument(
            featureNames: ["a"], baseMargin: 0, semantics: .lightGBM, thresholds: RiskThresholds(medium: 0.2, high: 0.6),
            metadata: ModelMetadata(
                insightType: "i", category: "c", version: "1", createdAt: "2026-01-01T00:00:00Z",
                training: TrainingProvenance(source: "test", tool: "hand")),
            trees: [tree])
        let model = try CompiledModel(document: document)
        #expect(model.margin(for: [.infinity]) == 1)
        #expect(model.margin(for: [-3]) == 1)
        #expect(model.margin(for: [.nan]) == 2)
    }
}
