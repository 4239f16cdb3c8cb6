import Testing
@testable import InsightModel

/// A file given to the wrong importer, or a dump that is no model, is refused saying what it is and what to do,
/// not with a syntax error at byte 0.
@Suite struct ImporterFormatHintTests: ImportRefusing {
    static let lightGBMText = """
        tree
        version=v4
        num_class=1
        num_tree_per_iteration=1
        max_feature_idx=0
        objective=binary sigmoid:1

        Tree=0
        num_leaves=1
        leaf_value=-2.5
        shrinkage=1

        end of trees

        """
    /// The head of what `Booster.dump_model()` returns, as `json.dump` writes it.
    static let lightGBMDump = """
        {"name": "tree", "version": "v4", "num_class": 1, "num_tree_per_iteration": 1, "label_index": 0,
         "max_feature_idx": 1, "objective": "binary sigmoid:1", "average_output": false, "feature_names": ["a", "b"],
         "tree_info": [{"tree_index": 0, "num_leaves": 1, "tree_structure": {"leaf_value": -2.5}}]}
        """
    /// `get_dump(dump_format='json')[0]` and `dump_model(path)` (text) of one stump.
    static let xgboostJSONDump = """
          { "nodeid": 0, "depth": 0, "split": "a", "split_condition": 0.5, "yes": 1, "no": 2, "missing": 1 , "children": [
            { "nodeid": 1, "leaf": 0.125 }, { "nodeid": 2, "leaf": 0.875 }]}
        """
    static let xgboostTextDump = "booster[0]:\n0:[a<0.5] yes=1,no=2,missing=1\n\t1:leaf=0.125\n\t2:leaf=0.875\n"

    @Test func theXGBoostImporterNamesWhatItWasGiven() {
        #expect(xgboostRefusal(Self.lightGBMText) == .otherFormat(.lightGBMText, source: "xgboost"))
        #expect(xgboostRefusal("\u{FEFF}" + Self.lightGBMText.replacingOccurrences(of: "\n", with: "\r\n"))
            == .otherFormat(.lightGBMText, source: "xgboost"))
        #expect(xgboostRefusal(Self.lightGBMDump) == .otherFormat(.lightGBMDump, source: "xgboost"))
        #expect(xgboostRefusal(Self.xgboostJSONDump) == .otherFormat(.xgboostDump, source: "xgboost"))
        #expect(xgboostRefusal("[\n" + Self.xgboostJSONDump + "\n]") == .otherFormat(.xgboostDump, source: "xgboost"))
        #expect(xgboostRefusal(Self.xgboostTextDump) == .otherFormat(.xgboostDump, source: "xgboost"))
        #expect(ModelImportError.otherFormat(.lightGBMText, source: "xgboost").description
            == "not a model --from xgboost reads: this is a LightGBM model text file (it opens with 'tree'): import it with --from lightgbm")
        #expect(ModelImportError.otherFormat(.xgboostDump, source: "xgboost").description.contains("save_model('model.json')"))
    }

    @Test func theLightGBMImporterNamesWhatItWasGiven() {
        let xgboost = String(decoding: ImporterRefusalTests.xgboost(), as: UTF8.self)
        #expect(lightGBMRefusal(xgboost) == .otherFormat(.xgboostModel, source: "lightgbm"))
        #expect(lightGBMRefusal(Self.lightGBMDump) == .otherFormat(.lightGBMDump, source: "lightgbm"))
        #expect(lightGBMRefusal(Self.xgboostTextDump) == .otherFormat(.xgboostDump, source: "lightgbm"))
        #expect(ModelImportError.otherFormat(.xgboostModel, source: "lightgbm").description
            == "not a model --from lightgbm reads: this is an XGBoost model (save_model JSON or UBJSON): import it with --from xgboost")
        #expect(ModelImportError.otherFormat(.lightGBMDump, source: "lightgbm").description.contains("save_model('model.txt')"))
    }

    /// Models whose feature names are the words the dumps are told by still import: the model is recognised first.
    @Test func featureNamesThatLookLikeADumpDoNotMislead() throws {
        let xgboost = ImporterRefusalTests.xgboost(featureNames: "\"nodeid\",\"num_tree_per_iteration\"")
        #expect(try XGBoostImporter.importModel(jsonBytes: xgboost, options: ImporterRefusalTests.options).featureNames
            == ["nodeid", "num_tree_per_iteration"])
        let lightGBM = Self.lightGBMText.replacingOccurrences(of: "max_feature_idx=0", with: "max_feature_idx=0\nfeature_names=nodeid")
        #expect(try LightGBMImporter.importModel(text: lightGBM, options: ImporterRefusalTests.options).featureNames == ["nodeid"])
    }

    /// Each kind is told by how the file opens, not by a word further in: a LightGBM dump whose features are
    /// named `learner` or `nodeid` (keys of its `feature_infos`) is still LightGBM's dump.
    @Test(arguments: ["learner", "nodeid"])
    func aLightGBMDumpWithFeaturesNamedLikeXGBoostWordsIsStillOne(name: String) {
        let dump = """
            {"name": "tree", "version": "v4", "num_class": 1, "num_tree_per_iteration": 1, "feature_names": ["\(name)", "x"],
             "monotone_constraints": [], "feature_infos": {"\(name)": {"min_value": -2.7, "max_value": 2.5, "values": []}}}
            """
        #expect(xgboostRefusal(dump) == .otherFormat(.lightGBMDump, source: "xgboost"))
        #expect(lightGBMRefusal(dump) == .otherFormat(.lightGBMDump, source: "lightgbm"))
    }

    /// `get_dump()` joined into a file has no `booster[0]:` lines; with `with_stats=True`, or as `dot`, it is a
    /// dump all the same.
    @Test(arguments: [
        "0:[f0<0.00556206331] yes=1,no=2,missing=2\n\t1:leaf=-0.573242605\n\t2:leaf=0.596020222\n",
        "0:[f0<0.00556206331] yes=1,no=2,missing=2,gain=292.198761,cover=74.9700012\n\t1:leaf=-0.57,cover=38.2\n",
        "0:leaf=0.25\n",
        "digraph {\n    graph [ rankdir=TB ]\n\n    0 [ label=\"f0<0.00556206331\" ]\n",
    ])
    func everyXGBoostDumpIsToldAsOne(dump: String) {
        #expect(xgboostRefusal(dump) == .otherFormat(.xgboostDump, source: "xgboost"))
        #expect(lightGBMRefusal(dump) == .otherFormat(.xgboostDump, source: "lightgbm"))
    }

    /// XGBoost JSON whose members were reordered (re-serialised) is not told by its first member; the LightGBM
    /// importer still says the file is JSON. Blank space before a model does not hide it.
    @Test func jsonTheKindsDoNotCoverIsSaidToBeJSON() {
        let xgboost = String(decoding: ImporterRefusalTests.xgboost(), as: UTF8.self)
        let reordered = "{\"version\":[3,2,0]," + xgboost.dropFirst()
        #expect(lightGBMRefusal(reordered)
            == .malformed("not a LightGBM model text file: the file is JSON (an XGBoost model? import it with --from xgboost)"))
        #expect(lightGBMRefusal(String(repeating: " ", count: 600) + xgboost) == .otherFormat(.xgboostModel, source: "lightgbm"))
        // A byte order mark, then more blank lines than the window, before a dump: told by either importer.
        let padded = "\u{FEFF}" + String(repeating: "\r\n", count: 400) + Self.lightGBMDump
        #expect(lightGBMRefusal(padded) == .otherFormat(.lightGBMDump, source: "lightgbm"))
        #expect(xgboostRefusal(padded) == .otherFormat(.lightGBMDump, source: "xgboost"))
    }

    /// A LightGBM file cut short after its first line is still told as LightGBM text, with or without the newline;
    /// a longer first word is not.
    @Test func theFirstLineAloneIsLightGBMText() {
        #expect(ModelFileKind.of("tree".utf8) == .lightGBMText)
        #expect(ModelFileKind.of(Array("\n tree\r\n".utf8)) == .lightGBMText)
        #expect(ModelFileKind.of("trees".utf8) == nil)
        #expect(ModelFileKind.of("tree x".utf8) == nil)
        #expect(xgboostRefusal("tree") == .otherFormat(.lightGBMText, source: "xgboost"))
    }

    /// One of our own models (as our writer orders its members, or by hand) or a manifest, given to either importer,
    /// is said to need no import rather than to lack a `learner` or to be JSON.
    @Test(arguments: [
        "{\n  \"baseMargin\" : -3.5,\n  \"featureNames\" : [\"a\"],\n  \"format\" : \"trust-insights.gbdt\"\n}",
        "{\"format\": \"trust-insights.gbdt\", \"formatVersion\": 1}",
        "{\"featureNames\": [\"learner\"]}",
        "{\"formatVersion\": 1, \"models\": []}",
    ])
    func ourOwnFormatIsSaidToNeedNoImport(document: String) {
        #expect(ModelFileKind.of(Array(document.utf8)) == .trustInsights)
        #expect(xgboostRefusal(document) == .otherFormat(.trustInsights, source: "xgboost"))
        #expect(lightGBMRefusal(document) == .otherFormat(.trustInsights, source: "lightgbm"))
        #expect(ModelImportError.otherFormat(.trustInsights, source: "xgboost").description
            .contains("already a trust-insights model (or a manifest), which needs no import"))
    }

    /// Anything else is left to the importer, which refuses it in its own words as before.
    @Test func otherFilesAreLeftToTheImporter() {
        #expect(ModelFileKind.of(Array("{\"a\": 1}".utf8)) == nil)
        #expect(ModelFileKind.of(Array("version=v4\n".utf8)) == nil)
        #expect(ModelFileKind.of([]) == nil)
        guard case .malformed = xgboostRefusal("{\"a\": 1}") else {
            Issue.record("a JSON object of another kind is malformed, as before")
            return
        }
    }
}
