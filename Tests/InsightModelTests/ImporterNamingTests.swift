import Testing
@testable import InsightModel

/// Feature names and objective lines both importers must read the same strict way.
@Suite struct ImporterNamingTests: ImportRefusing {
    /// A short list would have named the columns `Column_0...` silently: refused as the XGBoost importer refuses it.
    @Test func lightGBMRefusesAFeatureNamesLineOfAnotherLength() {
        let short = ImporterRefusalTests.lightGBM().replacingOccurrences(of: "feature_names=a b", with: "feature_names=b")
        #expect(lightGBMRefusal(short) == .malformed("feature_names lists 1 names for 2 features"))
        #expect(lightGBMRefusal(short, featureNames: ["x", "y"]) == .malformed("feature_names lists 1 names for 2 features"))
        let long = ImporterRefusalTests.lightGBM().replacingOccurrences(of: "feature_names=a b", with: "feature_names=a b c")
        #expect(lightGBMRefusal(long) == .malformed("feature_names lists 3 names for 2 features"))
        let none = ImporterRefusalTests.lightGBM().replacingOccurrences(of: "feature_names=a b\n", with: "")
        #expect(lightGBMRefusal(none) == nil)
    }

    /// LightGBM's `BinaryLogloss` fails to load a model whose objective line has no `sigmoid:`.
    @Test func lightGBMRefusesABinaryObjectiveWithoutSigmoidAsLightGBMDoes() throws {
        let error = try #require(lightGBMRefusal(ImporterRefusalTests.lightGBM(objective: "binary")))
        #expect(error == .missingSigmoid("binary"))
        #expect(error.description.contains("LightGBM refuses to load"))
        #expect(lightGBMRefusal(ImporterRefusalTests.lightGBM(objective: "binary sigmoid:1.000")) == nil)
        #expect(lightGBMRefusal(ImporterRefusalTests.lightGBM(objective: "binary sigmoid:0")) != nil)
    }

    /// `--features` may rename the file's columns, but not give one of the file's names to another column: the
    /// reversed list of a model's own names imported and registered, and scored every row from the wrong columns.
    @Test func bothImportersRefuseGivenNamesThatMoveOneOfTheFilesNames() throws {
        #expect(lightGBMRefusal(ImporterRefusalTests.lightGBM(), featureNames: ["b", "a"])
                == .featureNameMoved(name: "b", givenPosition: 0, sourcePosition: 1))
        #expect(lightGBMRefusal(ImporterRefusalTests.lightGBM(), featureNames: ["x", "a"])
                == .featureNameMoved(name: "a", givenPosition: 1, sourcePosition: 0))
        let named = ImporterRefusalTests.xgboost(featureNames: #""a","b""#)
        #expect(xgboostRefusal(named, featureNames: ["b", "a"]) == .featureNameMoved(name: "b", givenPosition: 0, sourcePosition: 1))
        #expect(ModelImportError.featureNameMoved(name: "b", givenPosition: 0, sourcePosition: 1).description
                .contains("would read it from the wrong column"))
        // The file's own order, renames in place, and names for a file without any are taken.
        #expect(lightGBMRefusal(ImporterRefusalTests.lightGBM(), featureNames: ["a", "b"]) == nil)
        #expect(lightGBMRefusal(ImporterRefusalTests.lightGBM(), featureNames: ["a", "y"]) == nil)
        #expect(xgboostRefusal(named, featureNames: ["x", "y"]) == nil)
        #expect(xgboostRefusal(ImporterRefusalTests.xgboost(), featureNames: ["b", "a"]) == nil)
    }

    /// A rename is recorded in the model's provenance (as a JSON array: a source name may hold a comma), so the
    /// model says which source column each of its features came from; the file's own names record nothing.
    @Test func renamedFeaturesKeepTheFilesNamesInTheProvenance() throws {
        var options = ImporterRefusalTests.options
        options.featureNames = ["activeCall", "b"]
        let renamed = try LightGBMImporter.importModel(text: ImporterRefusalTests.lightGBM(), options: options)
        #expect(renamed.metadata.training.parameters[ImportedFeatureNames.sourceNamesParameter] == #"["a","b"]"#)
        options.featureNames = ["a", "b"]
        let kept = try XGBoostImporter.importModel(jsonBytes: ImporterRefusalTests.xgboost(featureNames: #""a","b""#), options: options)
        #expect(kept.metadata.training.parameters[ImportedFeatureNames.sourceNamesParameter] == nil)
    }

    @Test func bothImportersRefuseAFeatureNamedLikeTheLabelColumn() throws {
        #expect(lightGBMRefusal(ImporterRefusalTests.lightGBM(), featureNames: ["label", "b"]) == .reservedFeatureName("label", inGivenNames: true))
        #expect(xgboostRefusal(ImporterRefusalTests.xgboost(), featureNames: ["a", "label"]) == .reservedFeatureName("label", inGivenNames: true))
        #expect(xgboostRefusal(ImporterRefusalTests.xgboost(featureNames: #""label","b""#)) == .reservedFeatureName("label", inGivenNames: false))
        #expect(ModelImportError.reservedFeatureName("label", inGivenNames: false).description.contains("read that column as the label; rename it with --features"))
        // A name the caller gave is not renamed with the option that gave it.
        let given = ModelImportError.reservedFeatureName("label", inGivenNames: true).description
        #expect(given.contains("give that column another name in --features") && !given.contains("rename it"), "\(given)")
    }

    /// XGBoost keeps `é` (U+00E9) and `e` with a combining acute (U+0065 U+0301) apart; Swift strings, and so requests
    /// and the catalogue, take them for one name. The refusal says so instead of calling one name repeated.
    @Test func canonicallyEquivalentNamesAreRefusedSayingWhyTheyClash() throws {
        let document = try XGBoostImporter.importModel(
            jsonBytes: ImporterRefusalTests.xgboost(), options: ImporterRefusalTests.options)
        var twoSpellings = document
        twoSpellings.featureNames = ["\u{E9}", "e\u{301}"]
        let error = #expect(throws: ModelValidationError.self) { try CompiledModel(document: twoSpellings) }
        #expect(error?.problem == .equivalentFeatureNames("\u{E9}", "e\u{301}"))
        let message = error?.description ?? ""
        #expect(message.contains("U+E9") && message.contains("U+65 U+301") && message.contains("canonically equivalent"), "\(message)")
        var repeated = document
        repeated.featureNames = ["a", "a"]
        let sameBytes = #expect(throws: ModelValidationError.self) { try CompiledModel(document: repeated) }
        #expect(sameBytes?.problem == .duplicateFeatureName("a"))
    }

    /// `train` refuses a header name holding a line break or another control character; an imported or hand-written
    /// model could carry one, and each message quoting it printed a forged second line (models probe, 7 December).
    @Test func aFeatureNameHoldingAControlCharacterIsRefusedByIndex() throws {
        let document = try XGBoostImporter.importModel(
            jsonBytes: ImporterRefusalTests.xgboost(), options: ImporterRefusalTests.options)
        for name in ["a\n{\"level\":\"error\"}", "a\u{0}", "tab\there", "a\u{85}", "a\u{2028}b", "a\u{2029}", "\u{1B}[31m", "a\u{202E}b", "\u{2066}x", "a\u{200F}"] {
            var named = document
            named.featureNames = ["b", name]
            let error = #expect(throws: ModelValidationError.self) { try CompiledModel(document: named) }
            #expect(error?.problem == .controlCharacterInFeatureName(feature: 1))
            #expect(error?.description.contains("the name of feature 1 holds a line break, another control character or a direction control") == true)
            #expect(error?.description.contains(name) == false)
        }
        var plain = document
        // A zero-width joiner (in an emoji) lays nothing out differently: only the direction controls of the format
        // characters are refused.
        plain.featureNames = ["é b", "x-y.z\u{1F469}\u{200D}\u{1F4BB}"]
        _ = try CompiledModel(document: plain)
        // Names from a file, shown before they are checked, are written inert.
        #expect(FeatureNameText.printable("a\n{\"x\"}\u{2028}") == "a\\u{A}{\"x\"}\\u{2028}")
        #expect(FeatureNameText.printable("é") == "é")
        #expect(FeatureNameText.printable("a\u{202E}gnp.exe") == "a\\u{202E}gnp.exe")
        // The text of an escape is not an escape.
        #expect(FeatureNameText.printable("b\\u{A}x") == "b\\\\u{A}x")
        #expect(FeatureNameText.printable("b\nx") == "b\\u{A}x")
        #expect(!ModelImportError.featureNameMoved(name: "a\nb", givenPosition: 0, sourcePosition: 1).description.contains("\n"))
        // Refused at import, where it is known whether the name came from the file or from --features.
        #expect(xgboostRefusal(ImporterRefusalTests.xgboost(), featureNames: ["a", "b\u{1B}[31m"])
            == .controlCharacterInFeatureName(feature: 1, inGivenNames: true))
        #expect(xgboostRefusal(ImporterRefusalTests.xgboost(featureNames: #""a\u000ax","b""#))
            == .controlCharacterInFeatureName(feature: 0, inGivenNames: false))
        #expect(xgboostRefusal(ImporterRefusalTests.xgboost(featureNames: #""a\u000ax","b""#), featureNames: ["a", "b"]) == nil)
        #expect(ModelImportError.controlCharacterInFeatureName(feature: 1, inGivenNames: true).description.contains("the name comes from --features"))
        #expect(ModelImportError.controlCharacterInFeatureName(feature: 1, inGivenNames: false).description.hasSuffix("rename it with --features"))
    }
}
