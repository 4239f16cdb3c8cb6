import Testing
@testable import InsightModel

/// Files the libraries never write but a hand or another tool may: each is read as the library reads it, or
/// refused, never scored otherwise than the library would score it (found by a black-box probe, 5 December).
@Suite struct ImportedFileConsistencyTests: ImportRefusing {
    typealias Source = ImporterRefusalTests

    /// XGBoost casts a UBJSON float64 to float32 at once; through the double's shortest text, a value halfway
    /// between two float32s was rounded twice and could land on the other one.
    @Test func aUBJSONFloat64RoundsStraightToFloat32() throws {
        for double in [0.14000000804662704, 0.1 + 0x1p-28, -3.0000001192092896, 1e39] {
            let bytes = [UInt8(ascii: "D")] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: double.bitPattern >> ($0 * 8)) }
            guard case .number(let text) = try UBJSONParser.parse(bytes) else {
                Issue.record("not a number")
                continue
            }
            #expect(Float(text) == Float(double), "\(double) read as \(text)")
        }
    }

    /// XGBoost places each tree at the position its `id` names; DART's weights and the float32 sum go by that order.
    @Test func xgboostTreesTakeThePlacesTheirIDsName() throws {
        let forest = String(decoding: Source.xgboostForest(trees: 2, attributes: ""), as: UTF8.self)
        // The second tree's leaves differ, and it is listed first under its own id.
        let firstLeaves = #""split_conditions":[5E-1,-2.5E-1,7.5E-1]"#
        var parts = forest.components(separatedBy: firstLeaves)
        #expect(parts.count == 3)
        let distinct = parts[0] + firstLeaves + parts[1] + #""split_conditions":[5E-1,-1E0,2E0]"# + parts[2]
        let reference = try XGBoostImporter.importModel(jsonBytes: Array(distinct.utf8), options: Source.options)
        let swappedIDs = distinct
            .replacingOccurrences(of: #""id":0,"#, with: #""id":X,"#)
            .replacingOccurrences(of: #""id":1,"#, with: #""id":0,"#)
            .replacingOccurrences(of: #""id":X,"#, with: #""id":1,"#)
        let reordered = try XGBoostImporter.importModel(jsonBytes: Array(swappedIDs.utf8), options: Source.options)
        #expect(reordered.trees == reference.trees.reversed())
        #expect(xgboostRefusal(distinct.replacingOccurrences(of: #""id":1,"#, with: #""id":0,"#))
            == .malformed("tree 1: id 0 is given to another tree too"))
        #expect(xgboostRefusal(distinct.replacingOccurrences(of: #""id":1,"#, with: #""id":7,"#))
            == .malformed("tree 1: id 7 is not a whole number from 0 to 1, one per tree"))
    }

    /// XGBoost refuses a file whose stated counts are not its trees'; so does the import.
    @Test func xgboostCountsBesideTheTreesMustBeTheirs() {
        let forest = String(decoding: Source.xgboostForest(trees: 2, attributes: "", indptr: "[0,1,2]"), as: UTF8.self)
        #expect(xgboostRefusal(forest) == nil)
        #expect(xgboostRefusal(forest.replacingOccurrences(of: #""num_trees":"2""#, with: #""num_trees":"5""#))
            == .malformed("gbtree_model_param.num_trees is 5, but the model holds 2 trees"))
        #expect(xgboostRefusal(forest.replacingOccurrences(of: #""tree_info":[0,0]"#, with: #""tree_info":[0]"#))
            == .malformed("tree_info lists 1 trees, but the model holds 2"))
        for bounds in ["[0,1]", "[0,1,3]", "[1,2]", "[0,2,1,2]", "[]"] {
            #expect(xgboostRefusal(forest.replacingOccurrences(of: "[0,1,2]", with: bounds))
                == .malformed("iteration_indptr must rise from 0 to the model's 2 trees"), "\(bounds)")
        }
        #expect(xgboostRefusal(forest.replacingOccurrences(of: #""num_target":"1""#, with: #""num_target":"0""#))
            == .malformed("num_target '0' is not a count: a whole number from 1 to \(Int.max)"))
    }

    /// LightGBM never writes hexadecimal and reads it as 0; Swift would read it at its value.
    @Test func lightGBMHexadecimalNumbersAreRefused() {
        let model = ImporterFuzzRegressionTests.lightGBM()
        #expect(lightGBMRefusal(model) == nil)
        #expect(lightGBMRefusal(model.replacingOccurrences(of: "leaf_value=-0.25 0.75", with: "leaf_value=-0.25 0x1p-2"))
            == .malformed("tree 0: leaf_value holds '0x1p-2'"))
        #expect(lightGBMRefusal(model.replacingOccurrences(of: "threshold=1.5", with: "threshold=0X1.8P0"))
            == .malformed("tree 0: threshold holds '0X1.8P0'"))
    }

    /// A line that is there but holds no usable value says so, rather than that the line is missing.
    @Test func refusalsNameAValueThatIsThereButUnusable() {
        #expect(lightGBMRefusal(ImporterFuzzRegressionTests.lightGBM(numLeaves: "0x4"))
            == .malformed("tree 0: num_leaves '0x4' is not a whole number of at least 1"))
        #expect(lightGBMRefusal(ImporterFuzzRegressionTests.lightGBM(maxFeatureIndex: "99999999999999999999"))
            == .malformed("max_feature_idx '99999999999999999999' is not a whole number from 0 to 65535"))
        let noObjective = String(decoding: Source.xgboost(), as: UTF8.self)
            .replacingOccurrences(of: #""objective":{"name":"binary:logistic","#, with: #""objective":{"#)
        #expect(xgboostRefusal(noObjective)
            == .malformed("no objective: learner.objective.name must name it (binary:logistic, reg:logistic or binary:logitraw)"))
    }

    /// Of a repeated line LightGBM keeps one copy or another depending on the line; a file with one is refused.
    @Test func lightGBMRepeatedLinesAreRefused() {
        let model = ImporterFuzzRegressionTests.lightGBM(maxFeatureIndex: "1")
        #expect(lightGBMRefusal(model.replacingOccurrences(of: "num_class=1\n", with: "num_class=1\nfeature_names=a b\nfeature_names=b a\n"))
            == .malformed("'feature_names=' appears more than once in the header"))
        #expect(lightGBMRefusal(model.replacingOccurrences(of: "threshold=1.5\n", with: "threshold=1.5\nthreshold=2.5\n"))
            == .malformed("tree 0: 'threshold=' appears more than once"))
        // A repeated key is quoted inert: it could hold a line break (regression probe, 7 December).
        #expect(lightGBMRefusal(model.replacingOccurrences(of: "num_class=1\n", with: "num_class=1\na\u{2028}b=1\na\u{2028}b=2\n"))
            == .malformed("'a\\u{2028}b=' appears more than once in the header"))
    }
}
