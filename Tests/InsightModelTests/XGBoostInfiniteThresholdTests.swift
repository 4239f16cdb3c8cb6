import FoundationEssentials
import Testing
@testable import InsightModel

/// XGBoost writes a threshold of `Infinity` or `-Infinity` (`inf` in UBJSON) where a feature's values reach
/// float32's limit (the exact method's midpoint of 3.0e38 and 3.3e38 overflows). Such a split is a real one:
/// `x < +inf` sends every number left, `x < -inf` every number right, and missing values go the default way.
/// The model below is XGBoost's own save (3.2.0) of a hand-edited file, one infinite root split per tree:
/// tree 0 `a < +inf` (missing left), tree 1 `b < -inf` (missing left), tree 2 `a < -inf` (missing right),
/// tree 3 `b < +inf` (missing right). The margins are what `Booster.predict(output_margin=True)` printed.
@Suite struct XGBoostInfiniteThresholdTests {
    static let json = Array("""
        {"learner":{"attributes":{},"feature_names":["a","b"],"feature_types":[],
        "gradient_booster":{"model":{"cats":{"enc":[],"feature_segments":[],"sorted_idx":[]},
        "gbtree_model_param":{"num_parallel_tree":"1","num_trees":"4"},"iteration_indptr":[0,1,2,3,4],
        "tree_info":[0,0,0,0],"trees":[{"base_weights":[0.0,0.125,0.875],"categories":[],"categories_nodes":[],
        "categories_segments":[],"categories_sizes":[],"default_left":[1,0,0],"id":0,"left_children":[1,-1,-1],
        "loss_changes":[1.0,0.0,0.0],"parents":[2147483647,0,0],"right_children":[2,-1,-1],
        "split_conditions":[Infinity,0.125,0.875],"split_indices":[0,0,0],"split_type":[0,0,0],
        "sum_hessian":[10.0,4.0,6.0],"tree_param":{"num_deleted":"0","num_feature":"2","num_nodes":"3",
        "size_leaf_vector":"1"}},{"base_weights":[0.0,-0.25,0.375],"categories":[],"categories_nodes":[],
        "categories_segments":[],"categories_sizes":[],"default_left":[1,0,0],"id":1,"left_children":[1,-1,-1],
        "loss_changes":[1.0,0.0,0.0],"parents":[2147483647,0,0],"right_children":[2,-1,-1],
        "split_conditions":[-Infinity,-0.25,0.375],"split_indices":[1,0,0],"split_type":[0,0,0],
        "sum_hessian":[10.0,4.0,6.0],"tree_param":{"num_deleted":"0","num_feature":"2","num_nodes":"3",
        "size_leaf_vector":"1"}},{"base_weights":[0.0,0.0625,-0.5],"categories":[],"categories_nodes":[],
        "categories_segments":[],"categories_sizes":[],"default_left":[0,0,0],"id":2,"left_children":[1,-1,-1],
        "loss_changes":[1.0,0.0,0.0],"parents":[2147483647,0,0],"right_children":[2,-1,-1],
        "split_conditions":[-Infinity,0.0625,-0.5],"split_indices":[0,0,0],"split_type":[0,0,0],
        "sum_hessian":[10.0,4.0,6.0],"tree_param":{"num_deleted":"0","num_feature":"2","num_nodes":"3",
        "size_leaf_vector":"1"}},{"base_weights":[0.0,1.5,-0.1875],"categories":[],"categories_nodes":[],
        "categories_segments":[],"categories_sizes":[],"default_left":[0,0,0],"id":3,"left_children":[1,-1,-1],
        "loss_changes":[1.0,0.0,0.0],"parents":[2147483647,0,0],"right_children":[2,-1,-1],
        "split_conditions":[Infinity,1.5,-0.1875],"split_indices":[1,0,0],"split_type":[0,0,0],
        "sum_hessian":[10.0,4.0,6.0],"tree_param":{"num_deleted":"0","num_feature":"2","num_nodes":"3",
        "size_leaf_vector":"1"}}]},"name":"gbtree"},"learner_model_param":{"base_score":"[5E-1]",
        "boost_from_average":"0","num_class":"0","num_feature":"2","num_target":"1"},
        "objective":{"name":"binary:logistic","reg_loss_param":{"scale_pos_weight":"1"}}},"version":[3,2,0]}
        """.utf8)

    static let ubjson = Array(Data(base64Encoded: """
        e0wAAAAAAAAAB2xlYXJuZXJ7TAAAAAAAAAAKYXR0cmlidXRlc3t9TAAAAAAAAAANZmVhdHVyZV9uYW1lc1sjTAAAAAAAAAACU0wAAAAAAAAAAWFT
        TAAAAAAAAAABYkwAAAAAAAAADWZlYXR1cmVfdHlwZXNbI0wAAAAAAAAAAEwAAAAAAAAAEGdyYWRpZW50X2Jvb3N0ZXJ7TAAAAAAAAAAFbW9kZWx7
        TAAAAAAAAAAEY2F0c3tMAAAAAAAAAANlbmNbI0wAAAAAAAAAAEwAAAAAAAAAEGZlYXR1cmVfc2VnbWVudHNbJGwjTAAAAAAAAAAATAAAAAAAAAAK
        c29ydGVkX2lkeFskbCNMAAAAAAAAAAB9TAAAAAAAAAASZ2J0cmVlX21vZGVsX3BhcmFte0wAAAAAAAAAEW51bV9wYXJhbGxlbF90cmVlU0wAAAAA
        AAAAATFMAAAAAAAAAAludW1fdHJlZXNTTAAAAAAAAAABNH1MAAAAAAAAABBpdGVyYXRpb25faW5kcHRyWyNMAAAAAAAAAAVpAGkBaQJpA2kETAAA
        AAAAAAAJdHJlZV9pbmZvWyNMAAAAAAAAAARpAGkAaQBpAEwAAAAAAAAABXRyZWVzWyNMAAAAAAAAAAR7TAAAAAAAAAAMYmFzZV93ZWlnaHRzWyRk
        I0wAAAAAAAAAAwAAAAA+AAAAP2AAAEwAAAAAAAAACmNhdGVnb3JpZXNbJGwjTAAAAAAAAAAATAAAAAAAAAAQY2F0ZWdvcmllc19ub2Rlc1skbCNM
        AAAAAAAAAABMAAAAAAAAABNjYXRlZ29yaWVzX3NlZ21lbnRzWyRMI0wAAAAAAAAAAEwAAAAAAAAAEGNhdGVnb3JpZXNfc2l6ZXNbJEwjTAAAAAAA
        AAAATAAAAAAAAAAMZGVmYXVsdF9sZWZ0WyRVI0wAAAAAAAAAAwEAAEwAAAAAAAAAAmlkaQBMAAAAAAAAAA1sZWZ0X2NoaWxkcmVuWyRsI0wAAAAA
        AAAAAwAAAAH//////////0wAAAAAAAAADGxvc3NfY2hhbmdlc1skZCNMAAAAAAAAAAM/gAAAAAAAAAAAAABMAAAAAAAAAAdwYXJlbnRzWyRsI0wA
        AAAAAAAAA3////8AAAAAAAAAAEwAAAAAAAAADnJpZ2h0X2NoaWxkcmVuWyRsI0wAAAAAAAAAAwAAAAL//////////0wAAAAAAAAAEHNwbGl0X2Nv
        bmRpdGlvbnNbJGQjTAAAAAAAAAADf4AAAD4AAAA/YAAATAAAAAAAAAANc3BsaXRfaW5kaWNlc1skbCNMAAAAAAAAAAMAAAAAAAAAAAAAAABMAAAA
        AAAAAApzcGxpdF90eXBlWyRVI0wAAAAAAAAAAwAAAEwAAAAAAAAAC3N1bV9oZXNzaWFuWyRkI0wAAAAAAAAAA0EgAABAgAAAQMAAAEwAAAAAAAAA
        CnRyZWVfcGFyYW17TAAAAAAAAAALbnVtX2RlbGV0ZWRTTAAAAAAAAAABMEwAAAAAAAAAC251bV9mZWF0dXJlU0wAAAAAAAAAATJMAAAAAAAAAAlu
        dW1fbm9kZXNTTAAAAAAAAAABM0wAAAAAAAAAEHNpemVfbGVhZl92ZWN0b3JTTAAAAAAAAAABMX19e0wAAAAAAAAADGJhc2Vfd2VpZ2h0c1skZCNM
        AAAAAAAAAAMAAAAAvoAAAD7AAABMAAAAAAAAAApjYXRlZ29yaWVzWyRsI0wAAAAAAAAAAEwAAAAAAAAAEGNhdGVnb3JpZXNfbm9kZXNbJGwjTAAA
        AAAAAAAATAAAAAAAAAATY2F0ZWdvcmllc19zZWdtZW50c1skTCNMAAAAAAAAAABMAAAAAAAAABBjYXRlZ29yaWVzX3NpemVzWyRMI0wAAAAAAAAA
        AEwAAAAAAAAADGRlZmF1bHRfbGVmdFskVSNMAAAAAAAAAAMBAABMAAAAAAAAAAJpZGkBTAAAAAAAAAANbGVmdF9jaGlsZHJlblskbCNMAAAAAAAA
        AAMAAAAB//////////9MAAAAAAAAAAxsb3NzX2NoYW5nZXNbJGQjTAAAAAAAAAADP4AAAAAAAAAAAAAATAAAAAAAAAAHcGFyZW50c1skbCNMAAAA
        AAAAAAN/////AAAAAAAAAABMAAAAAAAAAA5yaWdodF9jaGlsZHJlblskbCNMAAAAAAAAAAMAAAAC//////////9MAAAAAAAAABBzcGxpdF9jb25k
        aXRpb25zWyRkI0wAAAAAAAAAA/+AAAC+gAAAPsAAAEwAAAAAAAAADXNwbGl0X2luZGljZXNbJGwjTAAAAAAAAAADAAAAAQAAAAAAAAAATAAAAAAA
        AAAKc3BsaXRfdHlwZVskVSNMAAAAAAAAAAMAAABMAAAAAAAAAAtzdW1faGVzc2lhblskZCNMAAAAAAAAAANBIAAAQIAAAEDAAABMAAAAAAAAAAp0
        cmVlX3BhcmFte0wAAAAAAAAAC251bV9kZWxldGVkU0wAAAAAAAAAATBMAAAAAAAAAAtudW1fZmVhdHVyZVNMAAAAAAAAAAEyTAAAAAAAAAAJbnVt
        X25vZGVzU0wAAAAAAAAAATNMAAAAAAAAABBzaXplX2xlYWZfdmVjdG9yU0wAAAAAAAAAATF9fXtMAAAAAAAAAAxiYXNlX3dlaWdodHNbJGQjTAAA
        AAAAAAADAAAAAD2AAAC/AAAATAAAAAAAAAAKY2F0ZWdvcmllc1skbCNMAAAAAAAAAABMAAAAAAAAABBjYXRlZ29yaWVzX25vZGVzWyRsI0wAAAAA
        AAAAAEwAAAAAAAAAE2NhdGVnb3JpZXNfc2VnbWVudHNbJEwjTAAAAAAAAAAATAAAAAAAAAAQY2F0ZWdvcmllc19zaXplc1skTCNMAAAAAAAAAABM
        AAAAAAAAAAxkZWZhdWx0X2xlZnRbJFUjTAAAAAAAAAADAAAATAAAAAAAAAACaWRpAkwAAAAAAAAADWxlZnRfY2hpbGRyZW5bJGwjTAAAAAAAAAAD
        AAAAAf//////////TAAAAAAAAAAMbG9zc19jaGFuZ2VzWyRkI0wAAAAAAAAAAz+AAAAAAAAAAAAAAEwAAAAAAAAAB3BhcmVudHNbJGwjTAAAAAAA
        AAADf////wAAAAAAAAAATAAAAAAAAAAOcmlnaHRfY2hpbGRyZW5bJGwjTAAAAAAAAAADAAAAAv//////////TAAAAAAAAAAQc3BsaXRfY29uZGl0
        aW9uc1skZCNMAAAAAAAAAAP/gAAAPYAAAL8AAABMAAAAAAAAAA1zcGxpdF9pbmRpY2VzWyRsI0wAAAAAAAAAAwAAAAAAAAAAAAAAAEwAAAAAAAAA
        CnNwbGl0X3R5cGVbJFUjTAAAAAAAAAADAAAATAAAAAAAAAALc3VtX2hlc3NpYW5bJGQjTAAAAAAAAAADQSAAAECAAABAwAAATAAAAAAAAAAKdHJl
        ZV9wYXJhbXtMAAAAAAAAAAtudW1fZGVsZXRlZFNMAAAAAAAAAAEwTAAAAAAAAAALbnVtX2ZlYXR1cmVTTAAAAAAAAAABMkwAAAAAAAAACW51bV9u
        b2Rlc1NMAAAAAAAAAAEzTAAAAAAAAAAQc2l6ZV9sZWFmX3ZlY3RvclNMAAAAAAAAAAExfX17TAAAAAAAAAAMYmFzZV93ZWlnaHRzWyRkI0wAAAAA
        AAAAAwAAAAA/wAAAvkAAAEwAAAAAAAAACmNhdGVnb3JpZXNbJGwjTAAAAAAAAAAATAAAAAAAAAAQY2F0ZWdvcmllc19ub2Rlc1skbCNMAAAAAAAA
        AABMAAAAAAAAABNjYXRlZ29yaWVzX3NlZ21lbnRzWyRMI0wAAAAAAAAAAEwAAAAAAAAAEGNhdGVnb3JpZXNfc2l6ZXNbJEwjTAAAAAAAAAAATAAA
        AAAAAAAMZGVmYXVsdF9sZWZ0WyRVI0wAAAAAAAAAAwAAAEwAAAAAAAAAAmlkaQNMAAAAAAAAAA1sZWZ0X2NoaWxkcmVuWyRsI0wAAAAAAAAAAwAA
        AAH//////////0wAAAAAAAAADGxvc3NfY2hhbmdlc1skZCNMAAAAAAAAAAM/gAAAAAAAAAAAAABMAAAAAAAAAAdwYXJlbnRzWyRsI0wAAAAAAAAA
        A3////8AAAAAAAAAAEwAAAAAAAAADnJpZ2h0X2NoaWxkcmVuWyRsI0wAAAAAAAAAAwAAAAL//////////0wAAAAAAAAAEHNwbGl0X2NvbmRpdGlv
        bnNbJGQjTAAAAAAAAAADf4AAAD/AAAC+QAAATAAAAAAAAAANc3BsaXRfaW5kaWNlc1skbCNMAAAAAAAAAAMAAAABAAAAAAAAAABMAAAAAAAAAApz
        cGxpdF90eXBlWyRVI0wAAAAAAAAAAwAAAEwAAAAAAAAAC3N1bV9oZXNzaWFuWyRkI0wAAAAAAAAAA0EgAABAgAAAQMAAAEwAAAAAAAAACnRyZWVf
        cGFyYW17TAAAAAAAAAALbnVtX2RlbGV0ZWRTTAAAAAAAAAABMEwAAAAAAAAAC251bV9mZWF0dXJlU0wAAAAAAAAAATJMAAAAAAAAAAludW1fbm9k
        ZXNTTAAAAAAAAAABM0wAAAAAAAAAEHNpemVfbGVhZl92ZWN0b3JTTAAAAAAAAAABMX19fUwAAAAAAAAABG5hbWVTTAAAAAAAAAAGZ2J0cmVlfUwA
        AAAAAAAAE2xlYXJuZXJfbW9kZWxfcGFyYW17TAAAAAAAAAAKYmFzZV9zY29yZVNMAAAAAAAAAAZbNUUtMV1MAAAAAAAAABJib29zdF9mcm9tX2F2
        ZXJhZ2VTTAAAAAAAAAABMEwAAAAAAAAACW51bV9jbGFzc1NMAAAAAAAAAAEwTAAAAAAAAAALbnVtX2ZlYXR1cmVTTAAAAAAAAAABMkwAAAAAAAAA
        Cm51bV90YXJnZXRTTAAAAAAAAAABMX1MAAAAAAAAAAlvYmplY3RpdmV7TAAAAAAAAAAEbmFtZVNMAAAAAAAAAA9iaW5hcnk6bG9naXN0aWNMAAAA
        AAAAAA5yZWdfbG9zc19wYXJhbXtMAAAAAAAAABBzY2FsZV9wb3Nfd2VpZ2h0U0wAAAAAAAAAATF9fX1MAAAAAAAAAAd2ZXJzaW9uWyNMAAAAAAAA
        AANpA2kCaQB9
        """, options: .ignoreUnknownCharacters)!)

    /// (a, b) rows as float32 values, and XGBoost 3.2.0's margins for them.
    static let rows: [([Double], Float)] = [
        ([0.5, 0.5], 1.5), ([Double(Float(-3.0e38)), Double(Float(3.0e38))], 1.5), ([.nan, 0.5], 1.5),
        ([0.5, .nan], -0.8125), ([.nan, .nan], -0.8125), ([Double(Float(3.4e38)), Double(Float(-3.4e38))], 1.5),
    ]

    @Test func importsTheWordsXGBoostWritesAsInfiniteThresholds() throws {
        let document = try XGBoostImporter.importModel(jsonBytes: Self.json, options: ImporterRefusalTests.options)
        #expect(document.trees.map { $0.thresholds[0] } == [.infinity, -.infinity, -.infinity, .infinity])
        #expect(try XGBoostImporter.importModel(jsonBytes: Self.ubjson, options: ImporterRefusalTests.options) == document)
    }

    @Test func scoresAsXGBoostPredicts() throws {
        let document = try XGBoostImporter.importModel(jsonBytes: Self.json, options: ImporterRefusalTests.options)
        let model = try CompiledModel(document: document)
        var matrix = FeatureMatrix(columnCount: 2)
        for (row, _) in Self.rows { matrix.append(row: row) }
        let batch = model.margins(for: matrix)
        for (index, (row, margin)) in Self.rows.enumerated() {
            #expect(Float(model.margin(for: row)) == margin, "\(row)")
            #expect(Float(batch[index]) == margin, "\(row)")
            #expect(Float(ReferenceWalk(document: document).margin(for: row)) == margin, "\(row)")
            // Reason codes walk the same paths: the contributions add up to the margin.
            let contributions = model.contributions(for: row)
            #expect(abs(contributions.values.reduce(contributions.bias, +) - Double(margin)) < 1e-6, "\(row)")
        }
    }

    /// Only the threshold may be infinite: an infinite leaf, cover or base_score is still refused, and NaN
    /// anywhere is refused by the parser, naming the word.
    @Test func refusesInfinityWhereAFiniteNumberBelongs() throws {
        func replacing(_ old: String, with new: String) -> [UInt8] {
            Array(String(decoding: Self.json, as: UTF8.self).replacingOccurrences(of: old, with: new).utf8)
        }
        let leaf = try XGBoostImporter.importModel(
            jsonBytes: replacing("[Infinity,0.125,0.875]", with: "[Infinity,Infinity,0.875]"),
            options: ImporterRefusalTests.options)
        #expect(throws: ModelValidationError(.badLeafValue(tree: 0, node: 1))) { try CompiledModel(document: leaf) }
        let cover = try XGBoostImporter.importModel(
            jsonBytes: replacing("\"sum_hessian\":[10.0,4.0,6.0]", with: "\"sum_hessian\":[-Infinity,4.0,6.0]"),
            options: ImporterRefusalTests.options)
        #expect(throws: ModelValidationError(.badCover(tree: 0, node: 0))) { try CompiledModel(document: cover) }
        #expect(throws: ModelImportError.badBaseScore("Infinity")) {
            try XGBoostImporter.importModel(
                jsonBytes: replacing("\"base_score\":\"[5E-1]\"", with: "\"base_score\":Infinity"),
                options: ImporterRefusalTests.options)
        }
        #expect(throws: ModelImportError.malformed("tree 0: 'left_children' holds a non-integer")) {
            try XGBoostImporter.importModel(
                jsonBytes: replacing("\"left_children\":[1,-1,-1]", with: "\"left_children\":[Infinity,-1,-1]"),
                options: ImporterRefusalTests.options)
        }
        guard case .malformed(let detail) = ImporterRefusalTests().xgboostRefusal(replacing("[Infinity,0.125", with: "[NaN,0.125"))
        else {
            Issue.record("NaN must be refused as malformed")
            return
        }
        #expect(detail.contains("'NaN' is not a JSON number"), "\(detail)")
    }

    /// Our own documents stay strict JSON: they write ±inf as the strings "inf" and "-inf", and a bare word is
    /// a syntax error there.
    @Test func documentsRefuseTheBareWords() throws {
        let document = try XGBoostImporter.importModel(jsonBytes: Self.json, options: ImporterRefusalTests.options)
        let text = String(decoding: try document.jsonData(), as: UTF8.self)
        #expect(text.contains("\"-inf\""))
        #expect(try ModelDocument(jsonData: Data(text.utf8)) == document)
        let bare = text.replacingOccurrences(of: "\"-inf\"", with: "-Infinity")
        #expect(throws: (any Error).self) { try ModelDocument(jsonData: Data(bare.utf8)) }
    }
}
