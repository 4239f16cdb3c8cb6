import FoundationEssentials
import InsightModel
import Testing

@testable import InsightTraining

@Suite struct ModelExportTests {
    let context = ModelExportContext(
        insightType: "isLikelyBeingCoached", category: "payment", version: "2026.11.1",
        createdAt: "2026-11-21T00:00:00Z", trainingFileName: "train.csv", validationFileName: "valid.csv",
        toolVersion: "test")

    /// The float32 reference walk of the model format (XGBoost semantics), applied to the decoded document.
    func referenceMargin(_ document: ModelDocument, _ row: [Float]) -> Float {
        var margin = Float(document.baseMargin)
        for tree in document.trees {
            var node = 0
            while !tree.isLeaf(node) {
                let value = row[tree.splitFeatures[node]]
                let threshold = Float(tree.thresholds[node])
                let goesLeft = value.isNaN ? tree.defaultLeft[node] : value < threshold
                node = goesLeft ? tree.leftChildren[node] : tree.rightChildren[node]
            }
            margin += Float(tree.leafValues[node])
        }
        return margin
    }

    @Test func exportedDocumentScoresBitForBitLikeTheTrainer() throws {
        let train = SyntheticData.informativeMissing(rows: 2000, seed: 51)
        let valid = SyntheticData.informativeMissing(rows: 500, seed: 52)
        let model = try GBDTTrainer(parameters: SyntheticData.smallParameters()).train(train: train, valid: valid)
        let decoded = try ModelDocument(jsonData: try model.modelDocument(context).jsonData())
        let margins = model.margins(for: valid)
        for row in 0..<valid.rowCount {
            let values = Array(valid.values[(row * 2)..<(row * 2 + 2)])
            #expect(referenceMargin(decoded, values).bitPattern == margins[row].bitPattern)
        }
        // Values equal to a threshold go right in both.
        let threshold = model.trees[0].nodes[0].threshold
        let edge: [Float] = [threshold, 0.5]
        #expect(referenceMargin(decoded, edge).bitPattern == edge.withUnsafeBufferPointer { model.margin(for: $0) }.bitPattern)
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
        #expect(parameters["best-iteration"] == "\(model.bestIteration)")
        #expect(parameters["seed"] == "0")
        #expect(parameters["train-rows"] == "1500")
        #expect(document.metadata.training.dataDescription.contains("train.csv"))
        #expect(document.metadata.version == "2026.11.1")
    }
}
