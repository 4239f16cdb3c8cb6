import FoundationEssentials
import Glibc
import Testing
@testable import InsightModel

/// `sigmoidScale`: LightGBM's binary objective with `sigmoid:` other than 1 predicts 1 / (1 + exp(-sigmoid * raw)).
/// The margin stays LightGBM's raw score; only the link is scaled.
@Suite struct SigmoidScaleTests {
    static func lightGBM(objective: String) throws -> ModelDocument {
        try LightGBMImporter.importModel(
            text: ImporterRefusalTests.lightGBM(objective: objective), options: ImporterRefusalTests.options)
    }

    @Test func aSigmoidOtherThanOneImportsAsTheSameTreesWithAScaledLink() throws {
        let scaled = try Self.lightGBM(objective: "binary sigmoid:2")
        let plain = try Self.lightGBM(objective: "binary sigmoid:1")
        #expect(scaled.sigmoidScale == 2)
        #expect(plain.sigmoidScale == nil, "sigmoid 1 writes the same document as before the member existed")
        #expect(scaled.trees == plain.trees && scaled.baseMargin == plain.baseMargin)
        #expect(scaled.metadata.training.parameters["objective"] == "binary sigmoid:2")
        for margin in [-3.7, -0.25, 0, 0.75, 12.5] {
            #expect(scaled.probability(margin: margin).bitPattern == (1 / (1 + exp(-2 * margin))).bitPattern)
            #expect(plain.probability(margin: margin).bitPattern == (1 / (1 + exp(-margin))).bitPattern)
        }
        // The scorer's probability and level use the scaled link; its margin does not.
        let model = try CompiledModel(document: scaled)
        let unscaled = try CompiledModel(document: plain)
        let row = [0.0, 0.9]
        #expect(model.score(row).margin == unscaled.score(row).margin)
        #expect(model.score(row).probability == 1 / (1 + exp(-2 * model.score(row).margin)))
    }

    /// LightGBM's `BinaryLogloss` keeps the last `sigmoid:` of the line.
    @Test func theLastSigmoidOnTheLineCountsAsInLightGBM() throws {
        #expect(try Self.lightGBM(objective: "binary sigmoid:2 sigmoid:0.5").sigmoidScale == 0.5)
        #expect(try Self.lightGBM(objective: "binary sigmoid:0.5 sigmoid:1").sigmoidScale == nil)
        #expect(try Self.lightGBM(objective: "binary sigmoid:1e-3").sigmoidScale == 0.001)
    }

    @Test(arguments: ["binary sigmoid:0", "binary sigmoid:-1", "binary sigmoid:abc", "binary sigmoid:inf",
                      "binary sigmoid:nan", "binary sigmoid:0x1p1", "binary sigmoid:", "binary sigmoid:1e400",
                      "binary sigmoid:2 sigmoid:0"])
    func aSigmoidThatIsNotAPositiveDecimalIsRefused(objective: String) throws {
        #expect(throws: ModelImportError.badSigmoid(objective)) { try Self.lightGBM(objective: objective) }
        #expect(ModelImportError.badSigmoid(objective).description.contains("greater than zero"))
    }

    @Test func theScaleSurvivesBothDecodersAndTheValidatorChecksIt() throws {
        var document = HandModels.document()
        document.sigmoidScale = 0.37
        let data = try document.jsonData()
        #expect(String(decoding: data, as: UTF8.self).contains("\"sigmoidScale\":0.37"))
        #expect(try ModelDocument(jsonData: data) == document)
        #expect(try JSONDecoder().decode(ModelDocument.self, from: data) == document)
        try ModelValidator.validate(document)
        for bad in [0, -1, Double.infinity, -Double.infinity, Double.nan] {
            document.sigmoidScale = bad
            #expect(throws: ModelValidationError.self) { try ModelValidator.validate(document) }
            #expect(throws: ModelValidationError.self) { try CompiledModel(document: document) }
        }
        document.sigmoidScale = 0
        do {
            try ModelValidator.validate(document)
        } catch {
            #expect(error.description.contains("sigmoidScale must be a finite number greater than zero"))
        }
        // Not a number: a shape error naming the member.
        let text = String(decoding: try HandModels.document().jsonData(), as: UTF8.self)
            .replacingOccurrences(of: "{\"baseMargin\":0,", with: "{\"baseMargin\":0,\"sigmoidScale\":\"2\",")
        #expect(throws: JSONShapeError.self) { try ModelDocument(jsonData: Data(text.utf8)) }
        do {
            _ = try ModelDocument(jsonData: Data(text.utf8))
        } catch {
            #expect(error.path == "sigmoidScale")
        }
    }

    /// Held-out metrics measure the probabilities the model gives, through the scaled link.
    @Test func heldOutMetricsUseTheScaledLink() throws {
        var document = HandModels.document()
        let rows = FeatureMatrix(columnCount: 2, values: [0.1, 0.1, 0.9, 0.9, 0.1, 0.9, 0.9, 0.1])
        let labels = [0, 1, 1, 0]
        let plain = HeldOutMetrics.measure(try CompiledModel(document: document), rows: rows, labels: labels)
        document.sigmoidScale = 3
        let scaled = HeldOutMetrics.measure(try CompiledModel(document: document), rows: rows, labels: labels)
        #expect(plain.auc == scaled.auc, "a positive scale keeps the ranking")
        #expect(plain.logLoss != scaled.logLoss)
    }
}
