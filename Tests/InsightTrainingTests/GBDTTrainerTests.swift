import InsightModel
import Testing

@testable import InsightTraining

@Suite struct GBDTTrainerTests {
    let context = ModelExportContext(
        insightType: "isLikelyBeingCoached", category: "payment", version: "2026.11.1",
        createdAt: "2026-11-21T00:00:00Z", trainingFileName: "train.csv", validationFileName: "valid.csv",
        toolVersion: "test")

    func modelBytes(_ parameters: TrainingParameters, train: Dataset, valid: Dataset) throws -> [UInt8] {
        let model = try GBDTTrainer(parameters: parameters).train(train: train, valid: valid)
        return Array(try model.modelDocument(context).jsonData())
    }

    @Test func sameSeedGivesIdenticalModelBytes() throws {
        let train = SyntheticData.separable(rows: 1500, seed: 1)
        let valid = SyntheticData.separable(rows: 500, seed: 2)
        var parameters = SyntheticData.smallParameters()
        parameters.subsample = 0.7
        parameters.columnSample = 0.75
        parameters.seed = 42
        let first = try modelBytes(parameters, train: train, valid: valid)
        let second = try modelBytes(parameters, train: train, valid: valid)
        #expect(first == second)
    }

    @Test func threadCountDoesNotChangeTheModel() throws {
        let train = SyntheticData.separable(rows: 9000, seed: 3, features: 6)
        let valid = SyntheticData.separable(rows: 500, seed: 4, features: 6)
        var parameters = SyntheticData.smallParameters()
        parameters.trees = 5
        let single = try modelBytes(parameters, train: train, valid: valid)
        parameters.threads = 3
        let threaded = try modelBytes(parameters, train: train, valid: valid)
        #expect(single == threaded)
    }

    @Test func learnsASeparableProblem() throws {
        let train = SyntheticData.separable(rows: 2000, seed: 5)
        let valid = SyntheticData.separable(rows: 1000, seed: 6)
        let model = try GBDTTrainer(parameters: SyntheticData.smallParameters()).train(train: train, valid: valid)
        #expect(model.validationMetrics.auc > 0.95)
        #expect(model.validationMetrics.logLoss < model.validationLogLossHistory[0])
    }

    @Test func sendsMissingValuesTheWayTheDataPoints() throws {
        let train = SyntheticData.informativeMissing(rows: 3000, seed: 7)
        let valid = SyntheticData.informativeMissing(rows: 1000, seed: 8)
        var parameters = SyntheticData.smallParameters()
        parameters.trees = 10
        let model = try GBDTTrainer(parameters: parameters).train(train: train, valid: valid)
        func probability(_ x0: Float) -> Double {
            [x0, 0.5].withUnsafeBufferPointer { model.probability(for: $0) }
        }
        // Missing rows are positive like small values, so NaN must follow x0 < 0.2 rather than the default right.
        #expect(probability(.nan) > 0.6)
        #expect(probability(0.1) > 0.6)
        #expect(probability(0.9) < 0.2)
        let root = model.trees[0].nodes[0]
        #expect(root.feature == 0)
        #expect(root.defaultLeft)
        #expect(root.threshold > 0.15 && root.threshold < 0.25)
    }

    @Test func earlyStoppingKeepsTheBestIteration() throws {
        let train = SyntheticData.noise(rows: 2000, seed: 9)
        let valid = SyntheticData.noise(rows: 1000, seed: 10)
        var parameters = SyntheticData.smallParameters()
        parameters.trees = 200
        parameters.earlyStoppingRounds = 5
        let model = try GBDTTrainer(parameters: parameters).train(train: train, valid: valid)
        #expect(model.roundsTrained < 200)
        #expect(model.roundsTrained == model.bestIteration + 1 + 5)
        #expect(model.trees.count == model.bestIteration + 1)
        let best = model.validationLogLossHistory.min()!
        #expect(model.validationLogLossHistory[model.bestIteration] == best)
    }

    @Test func minChildWeightForbidsSplitsOfLightNodes() throws {
        let train = SyntheticData.separable(rows: 1000, seed: 11)
        let valid = SyntheticData.separable(rows: 300, seed: 12)
        var parameters = SyntheticData.smallParameters()
        parameters.minChildWeight = 1e6
        // No node is heavy enough to split: trees of one leaf each, which the trainer refuses to return.
        #expect(throws: TrainingError.noSplits(rows: 1000)) { try GBDTTrainer(parameters: parameters).train(train: train, valid: valid) }

        parameters.minChildWeight = 8
        let model = try GBDTTrainer(parameters: parameters).train(train: train, valid: valid)
        #expect(model.trees.contains { $0.nodes.count > 1 })
        for tree in model.trees {
            for node in tree.nodes where !node.isLeaf {
                #expect(tree.nodes[node.left].cover >= 8)
                #expect(tree.nodes[node.right].cover >= 8)
            }
        }
    }

    /// No regularisation at all (λ 0, min-child-weight 0), every tree kept: where 0/0 and x/0 leaves can arise.
    private static func unregularised() -> TrainingParameters {
        var parameters = SyntheticData.smallParameters()
        parameters.lambda = 0
        parameters.minChildWeight = 0
        parameters.earlyStoppingRounds = 0
        return parameters
    }

    /// Without regularisation (λ 0, min-child-weight 0) a cut that leaves one side empty but for the rounding of
    /// G and H must not become a child: its leaf, -G/H of two residues, was infinite or NaN, and a few rounds on the
    /// model failed validation or the trainer crashed (found by the data-shapes probe; XGBoost trains finite trees
    /// here). Every leaf stays finite, and every child holds rows.
    @Test func noRegularisationAtAllStillGivesFiniteLeavesAndChildrenWithRows() throws {
        let train = SyntheticData.separable(rows: 2000, seed: 21, features: 5)
        let valid = SyntheticData.separable(rows: 1000, seed: 22, features: 5)
        var parameters = Self.unregularised()
        parameters.learningRate = 1
        parameters.trees = 30
        parameters.maxDepth = 6
        for subsample in [1.0, 0.1] {
            parameters.subsample = subsample
            let model = try GBDTTrainer(parameters: parameters).train(train: train, valid: valid)
            for tree in model.trees {
                for node in tree.nodes {
                    #expect(node.value.isFinite)
                    if !node.isLeaf {
                        #expect(tree.nodes[node.left].cover > 0 && tree.nodes[node.right].cover > 0)
                    }
                }
            }
            _ = try model.modelDocument(context).jsonData()
        }
    }

    /// A round whose Bernoulli sample keeps no row, with λ 0, made a 0/0 leaf: NaN, added to every training margin,
    /// so every later round was NaN and `train` failed blaming the thresholds (found by a training probe). Such a
    /// round now adds a lone leaf of 0, and the model stays finite.
    @Test func aRoundThatSamplesNoRowAddsNothing() throws {
        let train = SyntheticData.separable(rows: 10, seed: 31, features: 2)
        var parameters = Self.unregularised()
        parameters.subsample = 0.2
        parameters.trees = 40
        for seed in UInt64(1)...3 {
            parameters.seed = seed
            let model = try GBDTTrainer(parameters: parameters).train(train: train, valid: train)
            #expect(model.trees.allSatisfy { $0.nodes.allSatisfy { $0.value.isFinite } }, "seed \(seed)")
            #expect(model.trees.contains { $0.nodes.count == 1 && $0.nodes[0].value == 0 }, "seed \(seed): no empty round")
            _ = try model.modelDocument(context).jsonData()
        }
    }

    @Test func lambdaShrinksLeafWeights() throws {
        let train = SyntheticData.separable(rows: 1000, seed: 13)
        let valid = SyntheticData.separable(rows: 300, seed: 14)
        var parameters = SyntheticData.smallParameters()
        parameters.trees = 1
        parameters.maxDepth = 1
        parameters.lambda = 0
        let loose = try GBDTTrainer(parameters: parameters).train(train: train, valid: valid)
        parameters.lambda = 500
        let tight = try GBDTTrainer(parameters: parameters).train(train: train, valid: valid)
        func largestLeaf(_ model: TrainedModel) -> Float { model.trees[0].nodes.filter(\.isLeaf).map { abs($0.value) }.max()! }
        #expect(largestLeaf(tight) < largestLeaf(loose) / 2)
        // The leaf weight is exactly -G / (H + λ) x η for the rows that reached it.
        #expect(loose.trees[0].nodes.count == 3)
    }

    @Test func subsamplingChangesTheModelButStaysDeterministic() throws {
        let train = SyntheticData.separable(rows: 1500, seed: 15)
        let valid = SyntheticData.separable(rows: 500, seed: 16)
        var parameters = SyntheticData.smallParameters()
        let full = try modelBytes(parameters, train: train, valid: valid)
        parameters.subsample = 0.5
        parameters.seed = 1
        let sampledA = try modelBytes(parameters, train: train, valid: valid)
        let sampledAAgain = try modelBytes(parameters, train: train, valid: valid)
        parameters.seed = 2
        let sampledB = try modelBytes(parameters, train: train, valid: valid)
        #expect(sampledA == sampledAAgain)
        #expect(sampledA != full)
        #expect(sampledA != sampledB)
    }

    @Test func columnSamplingUsesOnlyTheDrawnFeatures() throws {
        let train = SyntheticData.separable(rows: 1000, seed: 17, features: 8)
        let valid = SyntheticData.separable(rows: 300, seed: 18, features: 8)
        var parameters = SyntheticData.smallParameters()
        parameters.columnSample = 0.25
        let model = try GBDTTrainer(parameters: parameters).train(train: train, valid: valid)
        for tree in model.trees {
            let used = Set(tree.nodes.filter { !$0.isLeaf }.map(\.feature))
            #expect(used.count <= 2)
        }
    }

    @Test func rejectsSingleClassData() {
        let train = SyntheticData.make(rows: 100, seed: 19, features: 2) { _, _ in 0 }
        let valid = SyntheticData.separable(rows: 100, seed: 20, features: 2)
        #expect(throws: TrainingError.singleClass(set: "training", source: train.source, rows: 100, label: 0)) {
            try GBDTTrainer(parameters: SyntheticData.smallParameters()).train(train: train, valid: valid)
        }
        // The message names the file and says what it found.
        #expect(TrainingError.singleClass(set: "validation", source: "v.csv", rows: 3000, label: 1).description
            == "v.csv: the validation data must contain both labels 0 and 1, but all 3000 rows are labelled 1")
        #expect(TrainingError.singleClass(set: "validation", source: "v.csv", rows: 1, label: 1).description
            == "v.csv: the validation data must contain both labels 0 and 1, but its one row is labelled 1")
    }

    /// Features without signal give trees of one leaf each: one score for every row, and a `high` threshold equal to
    /// it that flags every row. No model is better than that one.
    @Test func refusesAModelWhoseTreesAreAllLeaves() {
        let train = SyntheticData.noise(rows: 400, seed: 22)
        let constant = try! Dataset(
            featureNames: train.featureNames, values: [Float](repeating: 1, count: train.values.count), labels: train.labels)
        #expect(throws: TrainingError.noSplits(rows: 400)) {
            try GBDTTrainer(parameters: SyntheticData.smallParameters()).train(train: constant, valid: constant)
        }
        let text = TrainingError.noSplits(rows: 400).description
        #expect(text.hasPrefix("no feature separates the labels: every tree is a single leaf"))
        #expect(text.contains("these 400 training rows"))
    }

    /// Trees that split but leave every score where it was (leaves far below the float32 margin's precision) are
    /// refused as trees without splits are: the thresholds would flag every row.
    @Test func refusesAModelWhoseScoresAreAllTheSame() {
        let train = SyntheticData.separable(rows: 1000, seed: 23)
        let valid = SyntheticData.separable(rows: 500, seed: 24)
        var parameters = SyntheticData.smallParameters()
        parameters.learningRate = 1e-30
        #expect(throws: TrainingError.constantScores(rows: 500)) {
            try GBDTTrainer(parameters: parameters).train(train: train, valid: valid)
        }
        #expect(TrainingError.constantScores(rows: 500).description.hasPrefix("every one of the 500 validation rows gets the same score"))
    }

    /// A present value may be the largest finite float, which no float32 threshold is above: a split of present
    /// values from missing ones must still send it with the present ones (it went with the missing ones, and
    /// such a model scored every row alike).
    @Test func aValueThatIsTheLargestFiniteFloatGoesWithThePresentValues() throws {
        func data(rows: Int, present: [Float]) throws -> Dataset {
            var values: [Float] = []
            var labels: [UInt8] = []
            for row in 0..<rows {
                let isPresent = row % 2 == 0
                values.append(isPresent ? present[(row / 2) % present.count] : .nan)
                // 90% positive when present, 10% when missing.
                labels.append(isPresent ? (row % 20 == 0 ? 0 : 1) : (row % 20 == 1 ? 1 : 0))
            }
            return try Dataset(featureNames: ["x"], values: values, labels: labels)
        }
        for present: [Float] in [[.greatestFiniteMagnitude], [1, 2, .greatestFiniteMagnitude]] {
            var parameters = SyntheticData.smallParameters()
            parameters.trees = 5
            let model = try GBDTTrainer(parameters: parameters).train(
                train: try data(rows: 2000, present: present), valid: try data(rows: 1000, present: present))
            func probability(_ x: Float) -> Double { [x].withUnsafeBufferPointer { model.probability(for: $0) } }
            for value in present { #expect(probability(value) > 0.7, "\(present): \(value)") }
            #expect(probability(.nan) < 0.3, "\(present)")
            #expect(model.validationMetrics.auc > 0.85, "\(present)")
        }
    }

    @Test func rejectsInvalidParameters() {
        let data = SyntheticData.separable(rows: 100, seed: 21)
        var parameters = SyntheticData.smallParameters()
        parameters.maxBins = 300
        #expect(throws: TrainingError.invalidParameter(name: "maxBins", rule: "2...256")) {
            try GBDTTrainer(parameters: parameters).train(train: data, valid: data)
        }
    }
}

@Suite struct ValidationBookkeepingTests {
    @Test func recordedMetricsAreThoseOfTheKeptTrees() throws {
        let train = SyntheticData.noise(rows: 1500, seed: 61)
        let valid = SyntheticData.noise(rows: 600, seed: 62)
        var parameters = SyntheticData.smallParameters()
        parameters.trees = 100
        parameters.earlyStoppingRounds = 3
        let model = try GBDTTrainer(parameters: parameters).train(train: train, valid: valid)
        let recomputed = BinaryMetrics(probabilities: model.probabilities(for: valid), labels: valid.labels)
        #expect(recomputed == model.validationMetrics)
        #expect(abs(model.validationMetrics.logLoss - model.validationLogLossHistory[model.bestIteration]) < 1e-12)
    }
}
