import Testing
@testable import InsightModel

/// XGBoost 3.2 bounds `base_score` to [1e-6, 1 - 1e-6] before taking its logit; the margins below are what
/// xgboost 3.2.0 predicts (`output_margin=True`) for a model without trees at each `base_score`.
@Suite struct XGBoostBaseScoreTests {
    func baseMargin(_ baseScore: String) throws -> Double {
        try XGBoostImporter.importModel(
            jsonBytes: ImporterRefusalTests.xgboost(baseScore: baseScore), options: ImporterRefusalTests.options
        ).baseMargin
    }

    @Test(arguments: [
        ("1E-7", Float(-13.81551)), ("1E-10", Float(-13.81551)), ("3.66E-8", Float(-13.81551)),
        ("9.999999E-1", Float(13.74516)), ("1E-6", Float(-13.81551)), ("9.99999E-1", Float(13.74516)),
    ])
    func boundsTheBaseScoreAsXGBoost32Predicts(baseScore: String, xgboostMargin: Float) throws {
        #expect(try baseMargin(baseScore) == Double(xgboostMargin))
    }

    @Test(arguments: [
        ("2E-6", Float(-13.122361)), ("1E-3", Float(-6.9067545)), ("2.03E-2", Float(-3.8766255)), ("3E-1", Float(-0.84729785)),
        ("7.777E-1", Float(1.2523129)), ("9.99E-1", Float(6.9067554)), ("9.9999E-1", Float(11.511568)),
    ])
    func takesXGBoostsOwnFloat32LogitInsideTheBound(baseScore: String, xgboostMargin: Float) throws {
        #expect(try baseMargin(baseScore) == Double(xgboostMargin))
    }

    /// Every training label one class: XGBoost writes base_score 0 or 1 and predicts the bounded margin.
    @Test func importsTheBaseScoreOfSingleClassLabels() throws {
        #expect(try baseMargin("0E0") == Double(Float(-13.81551)))
        #expect(try baseMargin("[1E0]") == Double(Float(13.74516)))
    }

    @Test func recordsTheBoundInTheProvenanceOnlyWhenItApplies() throws {
        let tiny = try XGBoostImporter.importModel(
            jsonBytes: ImporterRefusalTests.xgboost(baseScore: "1E-7"), options: ImporterRefusalTests.options)
        #expect(tiny.metadata.training.parameters["base_score"] == "1E-7")
        #expect(tiny.metadata.training.parameters["base_score_bounded_to"] == "1e-06")
        let high = try XGBoostImporter.importModel(
            jsonBytes: ImporterRefusalTests.xgboost(baseScore: "1E0"), options: ImporterRefusalTests.options)
        #expect(high.metadata.training.parameters["base_score_bounded_to"] == String(Float(1) - Float(1e-6)))
        let plain = try XGBoostImporter.importModel(
            jsonBytes: ImporterRefusalTests.xgboost(baseScore: "3E-1"), options: ImporterRefusalTests.options)
        #expect(plain.metadata.training.parameters["base_score_bounded_to"] == nil)
    }

    /// `Float(_:)` reads hexadecimal floats, which XGBoost's reader takes as 0: `0x1p-1` would be imported as 0.5
    /// and every margin would be off by 13.8.
    @Test(arguments: ["-1E-7", "1.0000001", "nan", "[nan]", "inf", "0x1p-1", "[0x1p-1]", "", "[]"])
    func refusesWhatIsNoProbability(baseScore: String) {
        #expect(throws: ModelImportError.badBaseScore(baseScore)) {
            try XGBoostImporter.importModel(
                jsonBytes: ImporterRefusalTests.xgboost(baseScore: baseScore), options: ImporterRefusalTests.options)
        }
    }
}
