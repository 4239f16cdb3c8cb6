import FoundationEssentials
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

    /// Taking the first of two columns of one name scored the file silently; `train` refuses such a header.
    @Test func scoreBenchAndEvaluateRefuseAHeaderNamingAColumnTwice() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(), to: "model.txt")
        #expect(harness.importModel("model.txt", from: "lightgbm", to: "m.json").status == 0)
        let expected = "rows.csv: the header names the column 'b' more than once (columns 3, 4)"
        let scored = try harness.scores(model: "m.json", csv: "label,a,b,b\n0,0,0.1,0.9\n1,0,0.9,0.1\n")
        #expect(scored.status == 1)
        #expect(scored.errors.contains(expected), "\(scored.errors)")
        let benched = harness.run(["models", "bench", "--model", harness.path("m.json"), "--input", harness.path("rows.csv")])
        #expect(benched.status == 1)
        #expect(benched.errors.contains(expected), "\(benched.errors)")
        let evaluated = harness.importModel("model.txt", from: "lightgbm", to: "e.json", ["--evaluate", harness.path("rows.csv")])
        #expect(evaluated.status == 1)
        #expect(evaluated.errors.contains(expected), "\(evaluated.errors)")
    }

    /// XGBoost and `train` refuse infinite input; scoring one would report a probability no library gives.
    @Test func refusesInfiniteAndOverflowingValuesNamingLineAndColumn() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(), to: "model.txt")
        #expect(harness.importModel("model.txt", from: "lightgbm", to: "float64.json").status == 0)
        try harness.write(ModelsCommandHarness.xgboostOneFeature, to: "model.json")
        #expect(harness.importModel("model.json", from: "xgboost", to: "float32.json").status == 0)
        let cases: [(model: String, csv: String, message: String)] = [
            ("float64.json", "a,b\n0,0.2\n0,-inf\n", "line 3: column 'b' is infinite"),
            ("float64.json", "a,b\n0,1e400\n", "line 2: column 'b' is outside a double's range"),
            ("float32.json", "f0\ninf\n", "line 2: column 'f0' is infinite"),
            ("float32.json", "f0\n-1e39\n", "line 2: column 'f0' is outside float32's range"),
        ]
        for (model, csv, message) in cases {
            let result = try harness.scores(model: model, csv: csv)
            #expect(result.status == 1, "\(csv)")
            #expect(result.errors.contains("rows.csv: \(message)"), "\(result.errors)")
        }
        // Underflow is zero, and a float64 model reads a value beyond float32 as the double it is.
        #expect(try harness.scores(model: "float32.json", csv: "f0\n1e-400\n").margins == ["-0.25"])
        #expect(try harness.scores(model: "float64.json", csv: "a,b\n0,1e39\n").margins == ["0.75"])
    }

    @Test func aLabelOfOneHalfIsAWrongLabelNotAnUnreadableNumber() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(), to: "model.txt")
        #expect(harness.importModel("model.txt", from: "lightgbm", to: "m.json").status == 0)
        let result = try harness.scores(model: "m.json", csv: "a,b,label\n0,0.9,1\n0,0.1,0.5\n")
        #expect(result.status == 1)
        #expect(result.errors.contains("rows.csv: line 3: label must be 0 or 1"), "\(result.errors)")
    }

    /// Lines ending in CR alone (classic Mac OS) would read as one record, a header and no rows: refused, as `train`
    /// refuses them, rather than scoring nothing and exiting 0.
    @Test func refusesCarriageReturnLineEndingsAsTrainDoes() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(), to: "model.txt")
        #expect(harness.importModel("model.txt", from: "lightgbm", to: "m.json").status == 0)
        let result = try harness.scores(model: "m.json", csv: "a,b\r0,0.9\r0,0.1\r")
        #expect(result.status == 1)
        #expect(result.errors.contains("rows.csv: line 1: a carriage return without a line feed"), "\(result.errors)")
        // A carriage return inside a quoted field is text, and CRLF is a line break.
        #expect(try harness.scores(model: "m.json", csv: "a,b,note\r\n0,0.9,\"x\ry\"\r\n").status == 0)
    }

    /// The file's bytes are read as they are: a field that is not UTF-8 is named, not turned into U+FFFD (two
    /// different Latin-1 names would otherwise read as one repeated name).
    @Test func refusesAFieldThatIsNotUTF8NamingItsLine() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(), to: "model.txt")
        #expect(harness.importModel("model.txt", from: "lightgbm", to: "m.json").status == 0)
        try Data([UInt8]("a,b,caf".utf8) + [0xE9] + [UInt8](",caf".utf8) + [0xE8] + [UInt8]("\n0,0.9,1,2\n".utf8))
            .write(to: harness.directory.appendingPathComponent("latin1.csv"))
        let result = harness.run(["models", "score", "--model", harness.path("m.json"), "--input", harness.path("latin1.csv")])
        #expect(result.status == 1)
        #expect(result.errors.contains("line 1: field 3 is not UTF-8"), "\(result.errors)")
    }
}
