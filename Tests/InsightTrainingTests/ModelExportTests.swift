import FoundationEssentials
import InsightModel
import Testing

@testable import InsightTraining

@Suite struct ModelExportTests {
    let context = ModelExportContext(
        insightType: "isLikelyBeingCoached", category: "payment", version: "2026.11.1",
        createdAt: "2026-11-21T00:00:00Z", trainingFileName: "train.csv", validationFileName: "valid.csv",
        toolVersion: "test")

    @Test func exportedDocumentScoresBitForBitLikeTheTrainer() throws {
        let train = SyntheticData.informativeMissing(rows: 2000, seed: 51)
        let valid = SyntheticData.informativeMissing(rows: 500, seed: 52)
        let model = try GBDTTrainer(parameters: SyntheticData.smallParameters()).train(train: train, valid: valid)
        let decoded = try ModelDocument(jsonData: try model.modelDocument(context).jsonData())
        try ModelValidator.validate(decoded)
        // The model runtime's oracle walk, on the document as read back from JSON.
        let walk = ReferenceWalk(document: decoded)
        let margins = model.margins(for: valid)
        let probabilities = model.probabilities(for: valid)
        for row in 0..<valid.rowCount {
            let values = valid.values[(row * 2)..<(row * 2 + 2)].map(Double.init)
            let margin = walk.margin(for: values)
            #expect(margin.bitPattern == Double(margins[row]).bitPattern)
            #expect(decoded.objective.probability(margin: margin).bitPattern == probabilities[row].bitPattern)
        }
        // A value equal to a threshold goes right in both.
        let threshold = model.trees[0].nodes[0].threshold
        let edge: [Float] = [threshold, 0.5]
        let trainerMargin = edge.withUnsafeBufferPointer { model.margin(for: $0) }
        #expect(walk.margin(for: edge.map(Double.init)).bitPattern == Double(trainerMargin).bitPattern)
    }

    @Test func compiledScorerReproducesTheTrainerBitForBit() throws {
        let train = SyntheticData.informativeMissing(rows: 2000, seed: 55)
        let valid = SyntheticData.informativeMissing(rows: 700, seed: 56)
        var parameters = SyntheticData.smallParameters()
        parameters.maxDepth = 5
        let model = try GBDTTrainer(parameters: parameters).train(train: train, valid: valid)
        let compiled = try CompiledModel(document: try ModelDocument(jsonData: try model.modelDocument(context).jsonData()))
        let trainerMargins = model.margins(for: valid)
        let matrix = FeatureMatrix(columnCount: 2, values: valid.values.map(Double.init))
        let batch = compiled.margins(for: matrix)
        for row in 0..<valid.rowCount {
            let expected = Double(trainerMargins[row]).bitPattern
            #expect(compiled.margin(for: Array(matrix.row(row))).bitPattern == expected)
            #expect(batch[row].bitPattern == expected)
        }
    }

    @Test func documentRecordsThresholdsMetricsAndProvenance() throws {
        let train = SyntheticData.separable(rows: 1500, seed: 53)
        let valid = SyntheticData.separable(rows: 500, seed: 54)
        let model = try GBDTTrainer(parameters: SyntheticData.smallParameters()).train(train: train, valid: valid)
        let document = model.modelDocument(context)
        #expect(document.semantics == .xgboost)
        #expect(document.featureNames == train.featureNames)
        #expect(document.trees.count == model.trees.count)
        #expect(document.thresholds.medium < document.thresholds.high)
        let metrics = try #require(document.metadata.heldOutMetrics)
        #expect(metrics.rows == 500)
        #expect(metrics.auc == model.validationMetrics.auc)
        #expect(metrics.atHigh.precision == model.thresholds.precisionAtHigh)
        let parameters = document.metadata.training.parameters
        // The small parameters keep every round (no early stopping): the round of lowest loss is recorded instead.
        #expect(model.keepsEveryRound)
        #expect(parameters["best-iteration"] == nil)
        #expect(parameters["lowest-validation-loss-iteration"] == "\(model.lowestValidationLossIteration)")
        #expect(parameters["seed"] == "0")
        #expect(parameters["train-rows"] == "1500")
        #expect(document.metadata.training.dataDescription.contains("train.csv"))
        #expect(document.metadata.version == "2026.11.1")
    }
}
