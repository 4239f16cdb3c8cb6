import Testing

@testable import TrustInsightsApp

/// `models score` scores every row of its input, reading values as the model's library would.
@Suite struct ModelsScoreCommandTests {
    @Test func aOneFeatureModelScoresABlankLineAsARowWithItsValueMissing() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.xgboostOneFeature, to: "model.json")
        #expect(harness.importModel("model.json", from: "xgboost", to: "m.json").status == 0)
        let result = try harness.scores(model: "m.json", csv: "f0\n0.4\n\n-1\n")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.margins == ["-0.25", "0.75", "-0.25"])
    }

    @Test func aBlankLineAmongSeveralColumnsIsRefusedNamingItsLine() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(), to: "model.txt")
        #expect(harness.importModel("model.txt", from: "lightgbm", to: "m.json").status == 0)
        let result = try harness.scores(model: "m.json", csv: "a,b\n1,0.2\n\n1,0.9\n")
        #expect(result.status != 0)
        #expect(result.errors.contains("line 3 is blank"), "\(result.errors)")
    }

    /// LightGBM compares doubles: a value 1e-12 above a threshold goes right, though float32 cannot tell them apart.
    @Test func aFloat64ModelReadsEveryDigitOfItsInput() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(), to: "model.txt")
        #expect(harness.importModel("model.txt", from: "lightgbm", to: "m.json").status == 0)
        let result = try harness.scores(model: "m.json", csv: "a,b\n0,0.5\n0,0.500000000001\n0,0.499999999999\n")
        #expect(result.margins == ["-0.25", "0.75", "-0.25"])
    }

    /// An ID column next to the features need not be a number: it is not read, like any other unused column.
    @Test func aColumnTheModelDoesNotReadMayHoldText() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(), to: "model.txt")
        #expect(harness.importModel("model.txt", from: "lightgbm", to: "m.json").status == 0)
        let result = try harness.scores(model: "m.json", csv: "id,a,b,label\nsession-1,0,0.9,1\nsession-2,0,0.1,0\n")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.margins == ["0.75", "-0.25"])
        let unreadable = try harness.scores(model: "m.json", csv: "a,b\n0,high\n")
        #expect(unreadable.errors.contains("line 2: column 'b' is not a number"), "\(unreadable.errors)")
    }
}
