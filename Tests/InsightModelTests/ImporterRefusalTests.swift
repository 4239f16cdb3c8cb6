import Foundation
import Testing
@testable import InsightModel

@Suite struct ImporterRefusalTests: ImportRefusing {
    static let options = ModelImportOptions(
        insightType: "isLikelyBeingCoached", category: "payment", version: "1", createdAt: "2026-01-01T00:00:00Z")

    /// A one-stump XGBoost model; the parts tests vary are parameters.
    static func xgboost(
        objective: String = "binary:logistic", baseScore: String = "5E-1", splitType: String = "0",
        numClass: String = "0", booster: String = "gbtree", leafVector: String = "1",
        featureNames: String = "", attributes: String = "", defaultLeft: String = "1", numNodes: String = "3",
        featureTypes: String = ""
    ) -> [UInt8] {
        let json = """
            {"learner":{"attributes":{\(attributes)},"feature_names":[\(featureNames)],"feature_types":[\(featureTypes)],
             "gradient_booster":{"model":{"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"1"},
              "tree_info":[0],
              "trees":[{"base_weights":[0,0,0],"categories":[],"categories_nodes":[],"categories_segments":[],
                "categories_sizes":[],"default_left":[\(defaultLeft),0,0],"id":0,"left_children":[1,-1,-1],
                "loss_changes":[1,0,0],"parents":[2147483647,0,0],"right_children":[2,-1,-1],
                "split_conditions":[5E-1,-2.5E-1,7.5E-1],"split_indices":[0,0,0],"split_type":[\(splitType),0,0],
                "sum_hessian":[10,4,6],"tree_param":{"num_deleted":"0","num_feature":"2","num_nodes":"\(numNodes)","size_leaf_vector":"\(leafVector)"}}]},
              "name":"\(booster)"},
             "learner_model_param":{"base_score":"\(baseScore)","boost_from_average":"1","num_class":"\(numClass)","num_feature":"2","num_target":"1"},
             "objective":{"name":"\(objective)","reg_loss_param":{"scale_pos_weight":"1"}}},
             "version":[3,2,0]}
            """
        return Array(json.utf8)
    }

    @Test func importsTheHandWrittenStump() throws {
        let document = try XGBoostImporter.importModel(jsonBytes: Self.xgboost(), options: Self.options)
        let model = try CompiledModel(document: document)
        #expect(document.featureNames == ["f0", "f1"])
        #expect(model.margin(for: [0.4, 0]) == -0.25)
        #expect(model.margin(for: [0.5, 0]) == 0.75)
        #expect(model.margin(for: [.nan, 0]) == -0.25)
    }

    /// With whitespace around the number or the brackets too, which XGBoost loads (`"[ 5E-1]"`, `" [5E-1]"`,
    /// `"[\t5E-1]"`; regression probe, 7 December) or refuses (`"5E-1 "`) for one and the same value.
    @Test(arguments: ["5E-1", "[5E-1]", "0.5", "[0.5]", "5.0E-1", " 5E-1 ", "5E-1 ", "[ 5E-1]", " [5E-1]", "[5E-1 ]"])
    func readsEveryBaseScoreForm(text: String) throws {
        #expect(try XGBoostImporter.parseBaseScore(text) == 0.5)
        let document = try XGBoostImporter.importModel(jsonBytes: Self.xgboost(baseScore: text), options: Self.options)
        #expect(document.baseMargin == 0)
    }

    @Test func readsTheFittedBracketedBaseScore() throws {
        #expect(try XGBoostImporter.parseBaseScore("[2.03E-2]") == Float(0.0203))
        #expect(try XGBoostImporter.parseBaseScore("[\t2.03E-2\n]") == Float(0.0203))
        #expect(XGBoostImporter.logit(0.0203) < -3.8)
    }

    @Test func refusesBaseScoresOutsideZeroOne() {
        #expect(xgboostRefusal(Self.xgboost(baseScore: "1.5")) == .badBaseScore("1.5"))
        #expect(xgboostRefusal(Self.xgboost(baseScore: "[0.1,0.2]")) == .multiClassNotSupported("base_score has 2 values"))
    }

    /// XGBoost reads any `default_left` but 1 as "right"; a 2 there is damage, and taking it as "left" would mis-score
    /// missing values. A `num_nodes` the arrays contradict is damage too (XGBoost refuses such a file).
    @Test func refusesDefaultDirectionsOtherThanZeroOrOneAndAContradictedNodeCount() {
        for value in ["2", "255", "-1"] {
            #expect(xgboostRefusal(Self.xgboost(defaultLeft: value)) == .malformed("tree 0: 'default_left' holds a value other than 0 or 1"))
        }
        #expect(xgboostRefusal(Self.xgboost(defaultLeft: "0")) == nil)
        #expect(xgboostRefusal(Self.xgboost(numNodes: "5")) == .malformed("tree 0: tree_param.num_nodes is 5 but the node arrays hold 3 nodes"))
    }

    @Test func refusesOtherObjectivesCategoricalMultiClassAndOtherBoosters() {
        #expect(xgboostRefusal(Self.xgboost(objective: "reg:squarederror")) == .unsupportedObjective("reg:squarederror"))
        // What XGBoost saves for a custom objective function: the message says so (importer probe, 6 December).
        #expect(ModelImportError.unsupportedObjective("reg:squarederror").description.contains("custom objective function"))
        #expect(!ModelImportError.unsupportedObjective("reg:gamma").description.contains("custom objective function"))
        #expect(xgboostRefusal(Self.xgboost(splitType: "1")) == .categoricalSplitsNotSupported(tree: 0))
        // A feature declared categorical is named as such, even when no tree splits on it.
        #expect(xgboostRefusal(Self.xgboost(featureTypes: #""q","c""#)) == .categoricalFeatureNotSupported(feature: 1))
        #expect(xgboostRefusal(Self.xgboost(featureTypes: #""q","q""#)) == nil)
        #expect(xgboostRefusal(Self.xgboost(numClass: "3")) == .multiClassNotSupported("num_class 3"))
        #expect(xgboostRefusal(Self.xgboost(numClass: "1")) == nil)
        // A damaged count is named as damage, not as a model of many outputs (models probe, 7 December).
        for damaged in ["-1", "two", "1.5", "99999999999999999999"] {
            #expect(xgboostRefusal(Self.xgboost(numClass: damaged)) == .malformed("num_class '\(damaged)' is not a count: a whole number from 0 to \(Int.max)"))
        }
        // A value of another JSON type is damage too, not a default (regression probe, 7 December).
        let binary = String(decoding: Self.xgboost(), as: UTF8.self)
        for (key, other) in [("num_class", "true"), ("num_class", "null"), ("num_class", "[2]"), ("num_target", "null")] {
            let text = binary.replacingOccurrences(of: #""\#(key)":"\#(key == "num_class" ? "0" : "1")""#, with: #""\#(key)":\#(other)"#)
            #expect(text != binary)
            #expect(xgboostRefusal(Array(text.utf8)) == .malformed("\(key) is not a count (it holds no number): a whole number from \(key == "num_class" ? 0 : 1) to \(Int.max)"), "\(key): \(other)")
        }
        // A multi-target model is refused under the same case; its message names both kinds, not only classes.
        #expect(ModelImportError.multiClassNotSupported("num_target 2").description.contains("multi-class or multi-target"))
        #expect(xgboostRefusal(Self.xgboost(booster: "gblinear")) == .unsupportedBooster("gblinear"))
        #expect(xgboostRefusal(Self.xgboost(leafVector: "2")) == .vectorLeavesNotSupported(tree: 0))
    }

    /// XGBoost 1.7 and 2.0 save `model.bin` (and 2.1 `.deprecated`) in the binary format from before JSON.
    @Test(arguments: [[0x62, 0x69, 0x6E, 0x66, 0, 0, 0, 0x3F, 6, 0] as [UInt8], Array("bs64AAAA".utf8)])
    func refusesTheLegacyBinaryFormatSayingHowToResaveIt(bytes: [UInt8]) throws {
        let error = try #require(xgboostRefusal(bytes))
        #expect(error == .legacyBinaryFormat)
        #expect(error.description.hasPrefix("legacy binary model format: re-save it as JSON with save_model('model.json')"))
    }

    @Test func refusesMalformedJSON() {
        guard case .malformed = xgboostRefusal(Array("{\"learner\": [1, 2".utf8)) else {
            Issue.record("expected a malformed-model error")
            return
        }
    }

    @Test func readsJSONAfterAByteOrderMarkAndNamesWhatIsWrongWithOtherBytes() throws {
        let document = try XGBoostImporter.importModel(jsonBytes: [0xEF, 0xBB, 0xBF] + Self.xgboost(), options: Self.options)
        #expect(document.trees.count == 1)
        guard case .malformed(let detail) = xgboostRefusal(Array("\u{1}garbage{".utf8)) else {
            Issue.record("bytes that are neither JSON nor UBJSON are malformed, not UBJSON")
            return
        }
        #expect(detail.contains("JSON syntax error at byte 0"))
    }

    /// Python's json module writes a non-finite float as a bare word; the refusal names it instead of a character.
    /// (`Infinity` and `-Infinity`, which XGBoost writes itself, are read: `XGBoostInfiniteThresholdTests`.)
    @Test(arguments: ["NaN", "-NaN", "inf", "-nan", "Inf"])
    func refusesNonFiniteWordsByName(_ word: String) {
        let model = String(decoding: Self.xgboost(), as: UTF8.self)
            .replacingOccurrences(of: "[5E-1,-2.5E-1,7.5E-1]", with: "[\(word),-2.5E-1,7.5E-1]")
        guard case .malformed(let detail) = xgboostRefusal(Array(model.utf8)) else {
            Issue.record("a non-finite word must be refused as malformed")
            return
        }
        #expect(detail.contains("'\(word)' is not a JSON number (JSON has no NaN or infinity)"), "\(detail)")
        #expect(detail.contains("JSON syntax error at byte"))
    }

    /// Where a lenient reader would guess which value is meant, the importer refuses and says where.
    @Test func refusesAmbiguousJSONDuplicateNamesInvalidUTF8AndStringsInTreeArrays() throws {
        func detail(_ bytes: [UInt8]) -> String {
            guard case .malformed(let detail) = xgboostRefusal(bytes) else { return "accepted" }
            return detail
        }
        let model = String(decoding: Self.xgboost(), as: UTF8.self)
        #expect(detail(Array(model.replacingOccurrences(of: #""version":[3,2,0]"#, with: #""version":[3,2,0],"learner":{}"#).utf8))
            .contains("member name 'learner' appears twice in one object"))
        #expect(detail(Array(model.replacingOccurrences(of: #""num_nodes":"3","#, with: #""num_nodes":"3","num_nodes":"3","#).utf8))
            .contains("appears twice"))
        var bytes = Self.xgboost(featureNames: #""Q","b""#)
        let position = bytes.firstIndex(of: UInt8(ascii: "Q"))!
        #expect(bytes[position - 1] == UInt8(ascii: "\""))
        bytes[position] = 0xFF
        #expect(detail(bytes).contains("string is not valid UTF-8"))
        for conditions in [#"["nan",-2.5E-1,7.5E-1]"#, #"["5E-1",-2.5E-1,7.5E-1]"#] {
            #expect(detail(Array(model.replacingOccurrences(of: "[5E-1,-2.5E-1,7.5E-1]", with: conditions).utf8))
                == "tree 0: 'split_conditions' holds a non-number")
        }
        #expect(detail(Array(model.replacingOccurrences(of: #""left_children":[1,-1,-1]"#, with: #""left_children":["1",-1,-1]"#).utf8))
            == "tree 0: 'left_children' holds a non-integer")
        // Escapes: a surrogate pair is one character; half of one, or a sign among the hex digits, is refused.
        let emoji = try XGBoostImporter.importModel(jsonBytes: Self.xgboost(featureNames: #""\ud83d\ude00","b\u00e9""#), options: Self.options)
        #expect(emoji.featureNames == ["\u{1F600}", "b\u{E9}"])
        #expect(detail(Self.xgboost(featureNames: #""\ud83d","b""#)).contains("unpaired surrogate"))
        #expect(detail(Self.xgboost(featureNames: #""\ude00x","b""#)).contains("unpaired surrogate"))
        #expect(detail(Self.xgboost(featureNames: #""\u+abc","b""#)).contains("invalid \\u escape"))
    }

    @Test func refusesFeatureNamesThatDoNotMatchTheFeatureCountOrAreEmpty() throws {
        #expect(xgboostRefusal(Self.xgboost(featureNames: #""a""#)) == .malformed("feature_names lists 1 names for 2 features"))
        let named = try XGBoostImporter.importModel(jsonBytes: Self.xgboost(featureNames: #""a","b""#), options: Self.options)
        #expect(named.featureNames == ["a", "b"])
        let empty = try XGBoostImporter.importModel(jsonBytes: Self.xgboost(featureNames: #""","b""#), options: Self.options)
        #expect(throws: ModelValidationError(.emptyFeatureName)) { try CompiledModel(document: empty) }
    }

    /// Early stopping through scikit-learn records `best_iteration`; its predict uses the trees up to it, while
    /// `Booster.predict` uses them all. All by default, and the record is kept so the CLI can say so.
    @Test func keepsEveryTreeUnlessAskedToStopAtTheRecordedBestIteration() throws {
        let three = Self.xgboostForest(trees: 3, attributes: #""best_iteration":"0""#)
        let all = try XGBoostImporter.importModel(jsonBytes: three, options: Self.options)
        #expect(all.trees.count == 3)
        #expect(all.metadata.training.parameters["best_iteration"] == "0")
        var options = Self.options
        options.keepsBestIterationOnly = true
        let best = try XGBoostImporter.importModel(jsonBytes: three, options: options)
        #expect(best.trees.count == 1)
        #expect(try CompiledModel(document: best).margin(for: [0.4, 0]) == -0.25)
        #expect(try CompiledModel(document: all).margin(for: [0.4, 0]) == -0.75)
        let beyond = Self.xgboostForest(trees: 3, attributes: #""best_iteration":"3""#)
        #expect(throws: ModelImportError.malformed("best_iteration 3 does not fit the model's 3 trees")) {
            try XGBoostImporter.importModel(jsonBytes: beyond, options: options)
        }
        let withBounds = Self.xgboostForest(trees: 3, attributes: #""best_iteration":"1""#, indptr: "[0,1,2,3]")
        #expect(try XGBoostImporter.importModel(jsonBytes: withBounds, options: options).trees.count == 2)
    }

    /// `trees` copies of the stump, with `iteration_indptr` when given.
    static func xgboostForest(trees: Int, attributes: String, indptr: String? = nil) -> [UInt8] {
        var text = String(decoding: xgboost(attributes: attributes), as: UTF8.self)
        let open = text.range(of: #""trees":["#)!
        let start = open.upperBound
        let end = text.range(of: "}}]},", range: start..<text.endIndex)!.lowerBound
        let tree = String(text[start..<end]) + "}}"
        // Each copy with its own id, and the count beside the trees, as XGBoost writes them.
        let copies = (0..<trees).map { tree.replacingOccurrences(of: #""id":0,"#, with: "\"id\":\($0),") }
        text.replaceSubrange(start..<text.index(end, offsetBy: 2), with: copies.joined(separator: ","))
        text = text.replacingOccurrences(of: #""num_trees":"1""#, with: "\"num_trees\":\"\(trees)\"")
        text = text.replacingOccurrences(of: #""tree_info":[0]"#, with: #""tree_info":["# + Array(repeating: "0", count: trees).joined(separator: ",") + "]")
        if let indptr { text = text.replacingOccurrences(of: #""tree_info":"#, with: #""iteration_indptr":\#(indptr),"tree_info":"#) }
        return Array(text.utf8)
    }

    static func lightGBM(objective: String = "binary sigmoid:1", decisionType: String = "2", extra: String = "") -> String {
        """
        tree
        version=v4
        num_class=1
        num_tree_per_iteration=1
        label_index=0
        max_feature_idx=1
        objective=\(objective)
        feature_names=a b
        feature_infos=[0:1] [0:1]
        tree_sizes=100

        Tree=0
        num_leaves=2
        num_cat=0
        split_feature=1
        split_gain=1
        threshold=0.5
        decision_type=\(decisionType)
        left_child=-1
        right_child=-2
        leaf_value=-0.25 0.75
        leaf_weight=4 6
        leaf_count=4 6
        internal_value=0
        internal_weight=10
        internal_count=10
        \(extra)
        shrinkage=1


        end of trees
        """
    }

    @Test func importsTheHandWrittenLightGBMStump() throws {
        let document = try LightGBMImporter.importModel(text: Self.lightGBM(), options: Self.options)
        let model = try CompiledModel(document: document)
        #expect(document.featureNames == ["a", "b"])
        #expect(model.margin(for: [0, 0.5]) == -0.25)
        #expect(model.margin(for: [0, 0.6]) == 0.75)
        // decision_type 2: default left, missing type None: NaN is read as 0 and compared.
        #expect(model.margin(for: [0, .nan]) == -0.25)
    }

    /// A file cut anywhere before LightGBM's closing line is refused: a tree cut inside a number line would
    /// otherwise parse to different scores.
    @Test func refusesATruncatedLightGBMFileWhereverItIsCut() throws {
        let full = Self.lightGBM()
        _ = try LightGBMImporter.importModel(text: full, options: Self.options)
        let bytes = Array(full.utf8)
        let treeStart = full.range(of: "Tree=0")!.lowerBound.utf16Offset(in: full)
        let endLine = full.range(of: "end of trees")!.lowerBound.utf16Offset(in: full)
        for cut in stride(from: treeStart, to: endLine, by: 1) {
            let text = String(decoding: bytes[..<cut], as: UTF8.self)
            #expect(lightGBMRefusal(text) != nil, "cut at byte \(cut)")
        }
        #expect(lightGBMRefusal(full.replacingOccurrences(of: "tree_sizes=100", with: "tree_sizes=100 100"))
            == .malformed("tree_sizes lists 2 trees but the file holds 1"))
        #expect(lightGBMRefusal(full.replacingOccurrences(of: "Tree=0", with: "Tree=1")) == .malformed("'Tree=1' is out of sequence"))
    }

    /// `boosting=rf` saves `average_output`: LightGBM's probability is sigmoid of the trees' mean, not their sum.
    @Test func averagesTheTreesOfALightGBMRandomForest() throws {
        let twoTrees = Self.lightGBM().replacingOccurrences(of: "tree_sizes=100", with: "tree_sizes=100 100")
            .replacingOccurrences(of: "\n\n\nend of trees", with: "\n\n" + Self.lightGBMTree(1) + "\n\nend of trees")
        let summed = try CompiledModel(document: try LightGBMImporter.importModel(text: twoTrees, options: Self.options))
        #expect(summed.margin(for: [0, 0.6]) == 1.5)
        let forest = twoTrees.replacingOccurrences(of: "feature_names=a b", with: "feature_names=a b\naverage_output")
        let document = try LightGBMImporter.importModel(text: forest, options: Self.options)
        #expect(document.metadata.training.parameters["average_output"] == "true")
        let averaged = try CompiledModel(document: document)
        #expect(averaged.margin(for: [0, 0.6]) == 0.75)
        #expect(averaged.margin(for: [0, 0.5]) == -0.25)
    }

    /// A model file checked out or saved with Windows line endings reads to the same document, tree for tree.
    @Test(Fixtures.needed) func readsLightGBMTextWithWindowsLineEndings() throws {
        let text = try Fixtures.text("lgb_200x63.txt")
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(crlf.utf8.count > text.utf8.count)
        let expected = try LightGBMImporter.importModel(text: text, options: Fixtures.options)
        #expect(try LightGBMImporter.importModel(text: crlf, options: Fixtures.options) == expected)
        #expect(try LightGBMImporter.importModel(text: Self.lightGBM().replacingOccurrences(of: "\n", with: "\r\n"),
                                                 options: Self.options).trees.count == 1)
    }

    @Test func readsLightGBMTextAfterAByteOrderMark() throws {
        #expect(try LightGBMImporter.importModel(text: "\u{FEFF}" + Self.lightGBM(), options: Self.options).trees.count == 1)
    }

    /// The stump of `lightGBM()` as tree `index`.
    static func lightGBMTree(_ index: Int) -> String {
        let text = lightGBM()
        let start = text.range(of: "Tree=0")!.lowerBound
        let end = text.range(of: "shrinkage=1")!.upperBound
        return text[start..<end].replacingOccurrences(of: "Tree=0", with: "Tree=\(index)")
    }

    @Test func refusesLightGBMCategoricalLinearMultiClassAndOtherObjectives() {
        #expect(lightGBMRefusal(Self.lightGBM(decisionType: "1")) == .categoricalSplitsNotSupported(tree: 0))
        #expect(lightGBMRefusal(Self.lightGBM(extra: "is_linear=1")) == .linearTreesNotSupported(tree: 0))
        #expect(lightGBMRefusal(Self.lightGBM(objective: "multiclass num_class:3")) == .multiClassNotSupported("objective multiclass"))
        let stump = Self.lightGBM()
        for key in ["num_class", "num_tree_per_iteration"] {
            #expect(lightGBMRefusal(stump.replacingOccurrences(of: "\(key)=1\n", with: "\(key)=3\n")) == .multiClassNotSupported("\(key) 3"))
            for damaged in ["1\u{0}", "0", "x", "99999999999999999999"] {
                #expect(lightGBMRefusal(stump.replacingOccurrences(of: "\(key)=1\n", with: "\(key)=\(damaged)\n"))
                    == .malformed("\(key) '\(damaged)' is not a count: a whole number from 1 to \(Int.max)"))
            }
            // LightGBM reads these as 1 too (regression probe, 7 December: they were refused as multi-class of 1).
            for one in ["+1", "01"] {
                #expect(lightGBMRefusal(stump.replacingOccurrences(of: "\(key)=1\n", with: "\(key)=\(one)\n")) == nil)
            }
        }
        #expect(lightGBMRefusal(Self.lightGBM(objective: "regression")) == .unsupportedObjective("regression"))
        #expect(lightGBMRefusal(Self.lightGBM(objective: "binary sigmoid:-2")) == .badSigmoid("binary sigmoid:-2"))
    }

    /// A categorical feature no tree splits on is still declared, by its categories in `feature_infos`, and refused
    /// as XGBoost's `feature_types` 'c' is; `none` (a feature LightGBM could not use) and `[min:max]` are numerical.
    @Test func refusesALightGBMFeatureDeclaredCategoricalThoughNoTreeSplitsOnIt() {
        let stump = Self.lightGBM()
        func infos(_ line: String) -> String { stump.replacingOccurrences(of: "feature_infos=[0:1] [0:1]", with: "feature_infos=" + line) }
        #expect(lightGBMRefusal(infos("-1:0:1:2:3 [0:1]")) == .categoricalFeatureDeclared(feature: 0, name: "a"))
        #expect(lightGBMRefusal(infos("[0:1] 3")) == .categoricalFeatureDeclared(feature: 1, name: "b"))
        #expect(lightGBMRefusal(infos("none [0:1]")) == nil)
        #expect(lightGBMRefusal(infos("[-1e+300:inf] none")) == nil)
        // Runs of spaces are one separator, as LightGBM splits the line: an edited line names the feature it means.
        #expect(lightGBMRefusal(infos("  [0:1]   0:1 ")) == .categoricalFeatureDeclared(feature: 1, name: "b"))
        #expect(ModelImportError.categoricalFeatureDeclared(feature: 1, name: "b").description.contains("feature 1 ('b') is declared categorical (feature_infos"))
        #expect(ModelImportError.categoricalFeatureDeclared(feature: 0, name: nil).description.hasPrefix("feature 0 is declared categorical"))
    }
}
