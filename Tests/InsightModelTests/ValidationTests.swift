import Testing
@testable import InsightModel

@Suite struct ValidationTests {
    func problem(_ trees: [ModelTree], features: [String] = ["a", "b"]) -> ModelValidationError? {
        do {
            try ModelValidator.validate(HandModels.document(trees: trees, features: features), file: "models/bad.json")
            return nil
        } catch {
            return error
        }
    }

    @Test func acceptsAWellFormedStump() {
        #expect(problem([HandModels.stump()]) == nil)
    }

    @Test func rejectsACycleNamingFileAndTree() throws {
        var tree = HandModels.stump()
        tree.leftChildren[0] = 0
        let error = try #require(problem([HandModels.stump(), tree]))
        #expect(error.problem == .cycle(tree: 1, node: 0))
        #expect(error.description.hasPrefix("models/bad.json: tree 1:"))
    }

    /// The format defines leafValues as 0 at splits and thresholds as 0 at leaves. The scorer ignores both, so a
    /// document carrying anything else was not written by an importer or the trainer.
    @Test func rejectsValuesWhereTheFormatSaysZero() throws {
        var leafAtSplit = HandModels.stump()
        leafAtSplit.leafValues[0] = 0.25
        #expect(problem([leafAtSplit])?.problem == .leafValueAtSplit(tree: 0, node: 0))
        var thresholdAtLeaf = HandModels.stump()
        thresholdAtLeaf.thresholds[2] = 7
        let error = try #require(problem([thresholdAtLeaf]))
        #expect(error.problem == .thresholdAtLeaf(tree: 0, node: 2))
        #expect(error.description == "models/bad.json: tree 0: node 2 is a leaf but has a non-zero threshold (thresholds are 0 at leaves)")
    }

    @Test(arguments: [
        ("2026-09-14T10:00:00Z", true), ("2026-09-14T10:00:00.123Z", true), ("2026-12-31T23:59:60Z", true),
        ("yesterday", false), ("2026-09-14", false), ("2026-09-14T10:00:00", false), ("2026-09-14T10:00:00+02:00", false),
        ("2026-13-14T10:00:00Z", false), ("2026-09-14 10:00:00Z", false), ("2026-09-14T10:00:00.Z", false),
        ("2026-09-14T10:00:00." + String(repeating: "9", count: 40) + "Z", true), ("２026-09-14T10:00:00Z", false),
        ("2026-02-29T00:00:00Z", false), ("2024-02-29T00:00:00Z", true), ("2000-02-29T00:00:00Z", true),
        ("1900-02-29T00:00:00Z", false), ("2026-04-31T00:00:00Z", false), ("2026-13-45T99:99:99Z", false),
        // A leap second ends a month, and nothing else (RFC 3339 §5.7).
        ("2026-06-30T23:59:60Z", true), ("2026-06-30T23:59:60.5Z", true), ("2026-06-15T12:30:60Z", false),
        ("2026-12-01T23:59:60Z", false), ("2026-06-30T23:58:60Z", false), ("2026-12-31T23:59:61Z", false),
    ])
    func checksThatCreatedAtIsAnRFC3339UTCTime(text: String, valid: Bool) {
        var document = HandModels.document()
        document.metadata.createdAt = text
        let error: ModelValidationError?
        do {
            try ModelValidator.validate(document)
            error = nil
        } catch let caught {
            error = caught
        }
        #expect((error == nil) == valid, "\(text)")
        if !valid { #expect(error?.problem == .badCreatedAt(text)) }
    }

    /// RFC 3339 §5.6 allows `t` and `z` in lower case where a time is typed; the commands capitalise them before
    /// they check the time, and write it back capitalised (a probe found `--at 2026-12-06t00:00:00z` refused).
    @Test func capitalizesOnlyTheSeparatorAndTheZone() {
        #expect(RFC3339UTC.capitalized("2026-12-06t00:00:00z") == "2026-12-06T00:00:00Z")
        #expect(RFC3339UTC.capitalized("2026-12-06t00:00:00.5z") == "2026-12-06T00:00:00.5Z")
        #expect(RFC3339UTC.isValid(RFC3339UTC.capitalized("2026-12-06T00:00:00z")))
        for unchanged in ["2026-12-06x00:00:00z0", "yesterday", "", "2026-12-06 00:00:00Z", "t026-12-06T00:00:00Z"] {
            #expect(RFC3339UTC.capitalized(unchanged) == unchanged || !RFC3339UTC.isValid(RFC3339UTC.capitalized(unchanged)))
        }
        // The model document itself is checked as it stands.
        #expect(!RFC3339UTC.isValid("2026-12-06t00:00:00z"))
    }

    @Test func rejectsAChildReachedTwice() throws {
        var tree = HandModels.stump()
        tree.rightChildren[0] = 1
        let error = try #require(problem([tree]))
        #expect(error.problem == .cycle(tree: 0, node: 1))
    }

    @Test func rejectsUnreachableNodes() throws {
        var tree = HandModels.stump()
        tree.leftChildren.append(-1)
        tree.rightChildren.append(-1)
        tree.splitFeatures.append(0)
        tree.thresholds.append(0)
        tree.defaultLeft.append(false)
        tree.leafValues.append(3)
        #expect(problem([tree])?.problem == .unreachableNode(tree: 0, node: 3))
    }

    @Test func rejectsDanglingChildren() throws {
        var tree = HandModels.stump()
        tree.rightChildren[0] = 9
        #expect(problem([tree])?.problem == .childOutOfRange(tree: 0, node: 0))
        tree.rightChildren[0] = -1
        #expect(problem([tree])?.problem == .halfLeaf(tree: 0, node: 0))
    }

    @Test func rejectsFeatureIndexOutOfRange() {
        var tree = HandModels.stump()
        tree.splitFeatures[0] = 2
        #expect(problem([tree])?.problem == .featureOutOfRange(tree: 0, node: 0, feature: 2))
    }

    @Test func rejectsNaNThresholdsAndNonFiniteLeavesButTakesInfiniteThresholds() {
        var tree = HandModels.stump()
        tree.thresholds[0] = .nan
        #expect(problem([tree])?.problem == .badThreshold(tree: 0, node: 0))
        // XGBoost writes ±inf where a feature's values reach float32's limit: a split like any other.
        tree.thresholds[0] = .infinity
        #expect(problem([tree]) == nil)
        tree.thresholds[0] = -.infinity
        #expect(problem([tree]) == nil)
        tree = HandModels.stump()
        tree.leafValues[2] = .infinity
        #expect(problem([tree])?.problem == .badLeafValue(tree: 0, node: 2))
    }

    @Test func rejectsValuesThatAreNotFloat32InAFloat32Model() {
        var tree = HandModels.stump()
        tree.thresholds[0] = 0.1
        #expect(problem([tree])?.problem == .notFloat32(tree: 0, node: 0))
    }

    @Test func rejectsDepthBeyondTheLimit() {
        let depth = ModelValidator.maximumDepth + 1
        // A left-leaning chain: node 2k splits into 2k+1 (next split) and 2k+2 (leaf).
        var tree = ModelTree(
            leftChildren: [], rightChildren: [], splitFeatures: [], thresholds: [], defaultLeft: [], leafValues: [])
        for level in 0..<depth {
            let index = tree.leftChildren.count
            tree.leftChildren.append(index + 2 < 2 * depth ? index + 2 : index + 1)
            tree.rightChildren.append(index + 1)
            tree.splitFeatures.append(0)
            tree.thresholds.append(Double(level))
            tree.defaultLeft.append(false)
            tree.leafValues.append(0)
            tree.leftChildren.append(-1)
            tree.rightChildren.append(-1)
            tree.splitFeatures.append(0)
            tree.thresholds.append(0)
            tree.defaultLeft.append(false)
            tree.leafValues.append(1)
        }
        tree.leftChildren.append(-1)
        tree.rightChildren.append(-1)
        tree.splitFeatures.append(0)
        tree.thresholds.append(0)
        tree.defaultLeft.append(false)
        tree.leafValues.append(2)
        #expect(problem([tree])?.problem == .tooDeep(tree: 0, depth: ModelValidator.maximumDepth + 1, limit: ModelValidator.maximumDepth))
    }

    /// The limit is part of the scorer's design; the refusal says how to train a model that fits it.
    @Test func theDepthRefusalSaysHowToRetrain() {
        let text = ModelValidationError(file: "m.json", .tooDeep(tree: 3, depth: 33, limit: 32)).description
        #expect(text.hasPrefix("m.json: tree 3: deeper than the limit of 32 (a path of 33 or more splits from the root): retrain with"))
        #expect(text.contains("XGBoost max_depth <= 32"))
        #expect(text.contains("LightGBM max_depth <= 32"))
    }

    @Test func rejectsMismatchedArraysBadThresholdsAndDuplicateFeatures() {
        var tree = HandModels.stump()
        tree.defaultLeft.removeLast()
        #expect(problem([tree])?.problem == .arrayLengthMismatch(tree: 0))
        #expect(problem([HandModels.stump()], features: ["a", "a"])?.problem == .duplicateFeatureName("a"))
        var document = HandModels.document()
        document.thresholds = RiskThresholds(medium: 0.7, high: 0.6)
        #expect(throws: ModelValidationError.self) { try ModelValidator.validate(document) }
        document = HandModels.document()
        document.formatVersion = 99
        #expect(throws: ModelValidationError.self) { try ModelValidator.validate(document) }
    }

    @Test func documentRoundTripsThroughJSONIncludingInfiniteThresholds() throws {
        var document = HandModels.document()
        document.semantics = .lightGBM
        document.trees[0].thresholds[0] = .infinity
        document.trees[0].missingTypes = [.nan, .none, .none]
        let decoded = try ModelDocument(jsonData: document.jsonData())
        #expect(decoded == document)
        #expect(try decoded.jsonData() == document.jsonData())
        document.semantics = .xgboost
        document.trees[0].thresholds[0] = -.infinity
        document.trees[0].missingTypes = nil
        #expect(String(decoding: try document.jsonData(), as: UTF8.self).contains("\"-inf\""))
        #expect(try ModelDocument(jsonData: document.jsonData()) == document)
    }

    @Test func builderLaysOutNestedTreesBreadthFirst() throws {
        let document = ModelDocument.float32(
            featureNames: ["a", "b"], baseMargin: 0.25,
            trees: [
                .split(
                    feature: 1, threshold: 2, defaultLeft: true,
                    left: .leaf(value: -1, cover: 3),
                    right: .split(
                        feature: 0, threshold: 0.5, defaultLeft: false, left: .leaf(value: 2, cover: 1),
                        right: .leaf(value: 3, cover: 1), cover: 2),
                    cover: 5)
            ],
            thresholds: RiskThresholds(medium: 0.2, high: 0.6), metadata: HandModels.metadata())
        let model = try CompiledModel(document: document)
        #expect(document.trees[0].leftChildren == [1, -1, 3, -1, -1])
        #expect(document.trees[0].covers == [5, 3, 2, 1, 1])
        #expect(model.margin(for: [0, 1]) == 0.25 - 1)
        #expect(model.margin(for: [.nan, .nan]) == 0.25 - 1)
        #expect(model.margin(for: [0.5, 2]) == 0.25 + 3)
        #expect(model.margin(for: [.nan, 2]) == 0.25 + 3)
    }
}
