import Testing
@testable import InsightModel

/// JSON as XGBoost before 1.6 wrote it (checked against files saved by xgboost 1.5.2): `default_left` as booleans,
/// and no `num_parallel_tree` or `iteration_indptr` beside the trees, early stopping recording `best_ntree_limit`.
@Suite struct XGBoostLegacyJSONTests {
    typealias Source = ImporterRefusalTests

    @Test func booleanDefaultDirectionsReadAsZeroAndOne() throws {
        let numeric = try XGBoostImporter.importModel(jsonBytes: Source.xgboost(defaultLeft: "1"), options: Source.options)
        let boolean = try XGBoostImporter.importModel(jsonBytes: Source.xgboost(defaultLeft: "true"), options: Source.options)
        #expect(boolean == numeric)
        let right = try XGBoostImporter.importModel(jsonBytes: Source.xgboost(defaultLeft: "false"), options: Source.options)
        #expect(right.trees[0].defaultLeft[0] == false)
        // Booleans only there: a boolean in the child arrays is still a damaged file.
        let model = String(decoding: Source.xgboost(), as: UTF8.self)
            .replacingOccurrences(of: #""left_children":[1,-1,-1]"#, with: #""left_children":[1,true,-1]"#)
        #expect(throws: ModelImportError.malformed("tree 0: 'left_children' holds a non-integer")) {
            try XGBoostImporter.importModel(jsonBytes: Array(model.utf8), options: Source.options)
        }
    }

    @Test func earlyStoppingWithoutTreeCountsPerIterationKeepsTheRecordedTreeLimit() throws {
        let forest = String(decoding: Source.xgboostForest(trees: 6, attributes: #""best_iteration":"1","best_ntree_limit":"4""#), as: UTF8.self)
            .replacingOccurrences(of: #""num_parallel_tree":"1","#, with: "")
        var options = Source.options
        options.keepsBestIterationOnly = true
        #expect(try XGBoostImporter.importModel(jsonBytes: Array(forest.utf8), options: options).trees.count == 4)
        // Where the file says how many trees an iteration has, that decides, whatever the attribute says.
        let counted = String(decoding: Source.xgboostForest(trees: 6, attributes: #""best_iteration":"1","best_ntree_limit":"4""#), as: UTF8.self)
        #expect(try XGBoostImporter.importModel(jsonBytes: Array(counted.utf8), options: options).trees.count == 2)
    }

    @Test func aSplitTypeThatIsNotANumberIsADamagedFileNotACategoricalSplit() {
        #expect(throws: ModelImportError.malformed("tree 0: 'split_type' holds a non-integer")) {
            try XGBoostImporter.importModel(jsonBytes: Source.xgboost(splitType: "false"), options: Source.options)
        }
        #expect(throws: ModelImportError.categoricalSplitsNotSupported(tree: 0)) {
            try XGBoostImporter.importModel(jsonBytes: Source.xgboost(splitType: "1"), options: Source.options)
        }
    }
}
