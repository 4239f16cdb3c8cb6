import FoundationEssentials
import Glibc
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

    /// `--output -` is standard output (no file named `-`), and labels of one class get no AUC, said in words
    /// rather than as nan.
    @Test func outputDashIsStandardOutputAndOneClassHasNoAUC() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.xgboostOneFeature, to: "model.json")
        #expect(harness.importModel("model.json", from: "xgboost", to: "m.json").status == 0)
        try harness.write("label,f0\n0,0.4\n0,0.9\n", to: "one-class.csv")
        let result = harness.run(["models", "score", "--model", harness.path("m.json"), "--input", harness.path("one-class.csv"), "--output", "-"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output == "margin,prob\n-0.25,0.43782349911420193\n0.75,0.679178699175393\n", "\(result.output)")
        #expect(result.errors.contains("AUC undefined (one class only)") && !result.errors.contains("nan"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: harness.path("-")) && !FileManager.default.fileExists(atPath: "-"))
        try harness.write("label,f0\n0,0.4\n1,0.9\n", to: "two-classes.csv")
        let both = harness.run(["models", "score", "--model", harness.path("m.json"), "--input", harness.path("two-classes.csv")])
        #expect(both.errors.contains("AUC 1.0"), "\(both.errors)")
        // `models import` prints its summary to standard output, so `-` is refused there rather than a file.
        let dash = harness.run(["models", "import", "--from", "xgboost", "--insight", "isLikelyBeingCoached", "--category", "payment",
                                "--version", "2027.01.1", "--out", "-", harness.path("model.json")])
        #expect(dash.status == 64 && dash.errors.contains("'--out'"), "\(dash.errors)")
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    /// A label column named but for case, spaces or a byte order mark is an extra column, as any other name is: the
    /// file is scored, and the missing metrics are said, not left out without a word.
    @Test func aColumnNamedAlmostLabelIsSaidToGiveNoMetrics() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.xgboostOneFeature, to: "model.json")
        #expect(harness.importModel("model.json", from: "xgboost", to: "m.json").status == 0)
        for header in ["Label,f0", "f0, label", "f0,LABEL "] {
            try harness.write(header + "\n" + (header.hasPrefix("f0") ? "0.4,0\n0.9,1\n" : "0,0.4\n1,0.9\n"), to: "near.csv")
            let result = harness.run(["models", "score", "--model", harness.path("m.json"), "--input", harness.path("near.csv"), "--output", "-"])
            #expect(result.status == 0, "\(result.errors)")
            let column = header.hasPrefix("f0") ? 2 : 1
            #expect(result.errors.contains("note: no metrics: no column of the header is named exactly 'label'; column \(column),"), "\(header): \(result.errors)")
        }
        try harness.write("id,f0\n7,0.4\n", to: "plain.csv")
        let plain = harness.run(["models", "score", "--model", harness.path("m.json"), "--input", harness.path("plain.csv"), "--output", "-"])
        #expect(plain.status == 0 && !plain.errors.contains("note:"), "\(plain.errors)")
    }

    @Test func aBlankLineAmongSeveralColumnsIsRefusedNamingItsLine() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(), to: "model.txt")
        #expect(harness.importModel("model.txt", from: "lightgbm", to: "m.json").status == 0)
        let result = try harness.scores(model: "m.json", csv: "a,b\n1,0.2\n\n1,0.9\n")
        #expect(result.status != 0)
        #expect(result.errors.contains("line 3 is blank"), "\(result.errors)")
    }

    /// A random forest with a sigmoid other than 1: its notes said both "margins are the averaged score" and
    /// "margins stay LightGBM's raw score" (importer probe, 6 December); the second now agrees with the first.
    @Test func aRandomForestsSigmoidNoteDoesNotContradictItsAveragingNote() throws {
        let harness = try ModelsCommandHarness()
        let forest = ModelsCommandHarness.lightGBMStump(objective: "binary sigmoid:1.7")
            .replacingOccurrences(of: "feature_names=a b", with: "feature_names=a b\naverage_output")
        try harness.write(forest, to: "model.txt")
        let imported = harness.importModel("model.txt", from: "lightgbm", to: "m.json")
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output.contains("margins are the averaged score LightGBM's sigmoid receives"), "\(imported.output)")
        #expect(imported.output.contains("margins are that averaged score"), "\(imported.output)")
        #expect(!imported.output.contains("raw score, so they are not"), "\(imported.output)")
    }

    /// LightGBM's `sigmoid:2`: the import says what it means, and the probabilities are 1 / (1 + exp(-2 * margin)),
    /// the margins LightGBM's raw score.
    @Test func aLightGBMSigmoidOtherThanOneScalesTheProbabilitiesNotTheMargins() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(objective: "binary sigmoid:2"), to: "model.txt")
        let imported = harness.importModel("model.txt", from: "lightgbm", to: "m.json")
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output.contains("LightGBM's sigmoid is 2.0 (sigmoidScale)"), "\(imported.output)")
        #expect(try harness.read("m.json").contains("\"sigmoidScale\":2"))
        try harness.write("a,b\n0,0.2\n0,0.9\n", to: "rows.csv")
        let result = harness.run(["models", "score", "--model", harness.path("m.json"), "--input", harness.path("rows.csv")])
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(lines.first == ["margin", "prob"])
        #expect(lines.dropFirst().map { $0[0] } == ["-0.25", "0.75"])
        #expect(lines.dropFirst().map { Double($0[1]) } == [1 / (1 + exp(0.5)), 1 / (1 + exp(-1.5))])
    }

    /// XGBoost's `binary:logitraw`: base_score is added to the margin as it stands, and the import says how the
    /// margin becomes a probability.
    @Test func anXGBoostLogitrawModelAddsItsBaseScoreToTheMargin() throws {
        let harness = try ModelsCommandHarness()
        let source = ModelsCommandHarness.xgboostOneFeature
            .replacingOccurrences(of: "binary:logistic", with: "binary:logitraw")
            .replacingOccurrences(of: "\"base_score\":\"5E-1\"", with: "\"base_score\":\"[-2E0]\"")
        try harness.write(source, to: "model.json")
        let imported = harness.importModel("model.json", from: "xgboost", to: "m.json")
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output.contains("note: binary:logitraw"), "\(imported.output)")
        let result = try harness.scores(model: "m.json", csv: "f0\n0.4\n0.6\n")
        #expect(result.margins == ["-2.25", "-1.25"], "\(result.errors)")
    }

    /// LightGBM compares doubles: a value 1e-12 above a threshold goes right, though float32 cannot tell them apart.
    @Test func aFloat64ModelReadsEveryDigitOfItsInput() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(), to: "model.txt")
        #expect(harness.importModel("model.txt", from: "lightgbm", to: "m.json").status == 0)
        let result = try harness.scores(model: "m.json", csv: "a,b\n0,0.5\n0,0.500000000001\n0,0.499999999999\n")
        #expect(result.margins == ["-0.25", "0.75", "-0.25"])
    }

    /// LightGBM trains on infinities and predicts them; a model it trained with `inf` and `-inf` among its values
    /// (three trees, `lightgbm` 4.7.0) scores them as `Booster.predict(raw_score=True)` does, `1e400` read as the
    /// infinity pandas and strtod make of it.
    @Test func aFloat64ModelScoresInfinitiesAsLightGBMPredicts() throws {
        let model = """
            tree
            version=v4
            num_class=1
            num_tree_per_iteration=1
            label_index=0
            max_feature_idx=1
            objective=binary sigmoid:1
            feature_names=a b
            feature_infos=[-3.2835604878882627:inf] [-inf:3.1119129382202093]
            tree_sizes=559 560 558

            Tree=0
            num_leaves=4
            num_cat=0
            split_feature=1 0 0
            split_gain=127.683 63.011 47.896
            threshold=-0.11855268824537209 0.45795848445265314 -0.076236536036099908
            decision_type=2 8 10
            left_child=2 -2 -1
            right_child=1 -3 -4
            leaf_value=-0.042975595189106576 -0.98952067502029117 0.17308667614997589 0.9614107268687323
            leaf_weight=19.749506756663322 32.249194577336311 18.249544218182564 29.749257013201714
            leaf_count=79 129 73 119
            internal_value=-0.0100001 -0.56937 0.560671
            internal_weight=99.9975 50.4987 49.4988
            internal_count=400 202 198
            is_linear=0
            shrinkage=1


            Tree=1
            num_leaves=4
            num_cat=0
            split_feature=1 0 1
            split_gain=57.9231 49.1159 27.751
            threshold=-0.59876964410272093 0.30813720209397982 0.66097284453419425
            decision_type=2 10 2
            left_child=-1 -2 -3
            right_child=1 2 -4
            leaf_value=0.54727764366432308 -0.69095480130322173 0.66547763599688714 -0.4905815176815348
            leaf_weight=30.951442509889603 33.381537616252899 14.831966742873194 7.9862178564071646
            leaf_count=141 160 66 33
            internal_value=-0.00199251 -0.304498 0.260864
            internal_weight=87.1512 56.1997 22.8182
            internal_count=400 259 99
            is_linear=0
            shrinkage=0.5


            Tree=2
            num_leaves=4
            num_cat=0
            split_feature=1 0 1
            split_gain=29.3288 35.0893 15.9286
            threshold=-1.0571094676547532 0.30813720209397982 0.33454727579057636
            decision_type=2 8 2
            left_child=-1 -2 -3
            right_child=1 2 -4
            leaf_value=0.58158453105585561 -0.58979497907691192 0.59573659815764202 -0.17395797510969002
            leaf_weight=16.287820786237717 26.762545257806778 13.727517381310465 13.170983716845511
            leaf_count=90 171 81 58
            internal_value=-0.0060742 -0.184447 0.218852
            internal_weight=69.9489 53.661 26.8985
            internal_count=400 310 139
            is_linear=0
            shrinkage=0.5


            end of trees

            """
        let harness = try ModelsCommandHarness()
        try harness.write(model, to: "model.txt")
        #expect(harness.importModel("model.txt", from: "lightgbm", to: "m.json").status == 0)
        let result = try harness.scores(
            model: "m.json", csv: "a,b\ninf,0\n-inf,0\n0,Infinity\n0,-Infinity\ninf,-inf\n1e400,0\n0.5,0.5\n,-inf\n")
        #expect(result.status == 0, "\(result.errors)")
        let lightGBM = [
            1.434300910304505, -2.270270455400425, -2.270270455400425, 2.0902729015889108, 2.0902729015889108,
            1.434300910304505, 0.664606337037173, 1.0858865795310721,
        ]
        #expect(result.margins.map { Double($0) } == lightGBM)
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

    /// XGBoost and `train` refuse infinite input; scoring one would report a probability XGBoost never gives.
    /// (LightGBM takes it: `aFloat64ModelScoresInfinitiesAsLightGBMPredicts`.)
    @Test func refusesInfiniteAndOverflowingValuesNamingLineAndColumn() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(), to: "model.txt")
        #expect(harness.importModel("model.txt", from: "lightgbm", to: "float64.json").status == 0)
        try harness.write(ModelsCommandHarness.xgboostOneFeature, to: "model.json")
        #expect(harness.importModel("model.json", from: "xgboost", to: "float32.json").status == 0)
        let cases: [(model: String, csv: String, message: String)] = [
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
