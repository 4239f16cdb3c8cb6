import Foundation
import Testing
@testable import InsightModel

/// XGBoost before 3.0 writes NaN where a categorical split or a vector leaf has no number. Those models are refused
/// for what they are (categorical, multi-target), not as "NaN is not a JSON number", which sent an operator looking
/// for a broken training run.
@Suite struct XGBoostNaNShapeRefusalTests {
    /// A one-stump categorical model (`enable_categorical`, pandas category column) as xgboost 2.1.4 saved it.
    static let categorical214 = #"""
        {"learner":{"attributes":{},"feature_names":["c"],"feature_types":["c"],"gradient_booster":{"model":{"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"1"},"iteration_indptr":[0,1],"tree_info":[0],"trees":[{"base_weights":[-4.8194833E-2,9.3740577E-1,-4.2633754E-1],"categories":[0,1,3],"categories_nodes":[0],"categories_segments":[0],"categories_sizes":[3],"default_left":[1,0,0],"id":0,"left_children":[1,-1,-1],"loss_changes":[3.8010382E2,0E0,0E0],"parents":[2147483647,0,0],"right_children":[2,-1,-1],"split_conditions":[NaN,9.3740577E-1,-4.2633754E-1],"split_indices":[0,0,0],"split_type":[1,0,0],"sum_hessian":[8.523757E1,2.535818E1,5.9879395E1],"tree_param":{"num_deleted":"0","num_feature":"1","num_nodes":"3","size_leaf_vector":"1"}}]},"name":"gbtree"},"learner_model_param":{"base_score":"3.078905E-1","boost_from_average":"1","num_class":"0","num_feature":"1","num_target":"1"},"objective":{"name":"binary:logistic","reg_loss_param":{"scale_pos_weight":"1"}}},"version":[2,1,4]}
        """#

    /// The same training as xgboost 1.7.6 saved it (no `iteration_indptr`; best_iteration recorded).
    static let categorical176 = #"""
        {"learner":{"attributes":{"best_iteration":"0","best_ntree_limit":"1"},"feature_names":["c"],"feature_types":["c"],"gradient_booster":{"model":{"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"1","size_leaf_vector":"0"},"tree_info":[0],"trees":[{"base_weights":[-8.019802E-1,5.804878E-1,-5.9157896E-1],"categories":[0,1,3],"categories_nodes":[0],"categories_segments":[0],"categories_sizes":[3],"default_left":[1,0,0],"id":0,"left_children":[1,-1,-1],"loss_changes":[3.2722583E2,0E0,0E0],"parents":[2147483647,0,0],"right_children":[2,-1,-1],"split_conditions":[NaN,5.804878E-1,-5.9157896E-1],"split_indices":[0,0,0],"split_type":[1,0,0],"sum_hessian":[1E2,2.975E1,7.025E1],"tree_param":{"num_deleted":"0","num_feature":"1","num_nodes":"3","size_leaf_vector":"0"}}]},"name":"gbtree"},"learner_model_param":{"base_score":"5E-1","boost_from_average":"1","num_class":"0","num_feature":"1","num_target":"1"},"objective":{"name":"binary:logistic","reg_loss_param":{"scale_pos_weight":"1"}}},"version":[1,7,6]}
        """#

    /// `multi_strategy: multi_output_tree` with two targets, xgboost 2.1.4: its leaves are vectors, and NaN stands
    /// in the split conditions of its leaf nodes.
    static let multiTarget214 = #"""
        {"learner":{"attributes":{},"feature_names":[],"feature_types":[],"gradient_booster":{"model":{"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"1"},"iteration_indptr":[0,1],"tree_info":[0],"trees":[{"base_weights":[-4.956668E-2,4.9531475E-2,-2.8467595E-3,-5.7115287E-1,-2.6718438E-2,6.063521E-1],"categories":[],"categories_nodes":[],"categories_segments":[],"categories_sizes":[],"default_left":[0,0,0],"id":0,"left_children":[1,-1,-1],"parents":[-1,0,0],"right_children":[2,-1,-1],"split_conditions":[8.88625E-4,NaN,NaN],"split_indices":[1,0,0],"split_type":[0,0,0],"tree_param":{"num_deleted":"0","num_feature":"2","num_nodes":"3","size_leaf_vector":"2"}}]},"name":"gbtree"},"learner_model_param":{"base_score":"4.8500445E-1","boost_from_average":"1","num_class":"0","num_feature":"2","num_target":"2"},"objective":{"name":"binary:logistic","reg_loss_param":{"scale_pos_weight":"1"}}},"version":[2,1,4]}
        """#

    /// `categorical214`'s training saved with `save_model("cat.ubj")` by xgboost 2.1.4, base64-encoded.
    static let categorical214UBJSON = Array(Data(base64Encoded: """
        e0wAAAAAAAAAB2xlYXJuZXJ7TAAAAAAAAAAKYXR0cmlidXRlc3t9TAAAAAAAAAANZmVhdHVyZV9uYW1lc1sjTAAAAAAAAAABU0wA
        AAAAAAAAAWNMAAAAAAAAAA1mZWF0dXJlX3R5cGVzWyNMAAAAAAAAAAFTTAAAAAAAAAABY0wAAAAAAAAAEGdyYWRpZW50X2Jvb3N0
        ZXJ7TAAAAAAAAAAFbW9kZWx7TAAAAAAAAAASZ2J0cmVlX21vZGVsX3BhcmFte0wAAAAAAAAAEW51bV9wYXJhbGxlbF90cmVlU0wA
        AAAAAAAAATFMAAAAAAAAAAludW1fdHJlZXNTTAAAAAAAAAABMX1MAAAAAAAAABBpdGVyYXRpb25faW5kcHRyWyNMAAAAAAAAAAJp
        AGkBTAAAAAAAAAAJdHJlZV9pbmZvWyNMAAAAAAAAAAFpAEwAAAAAAAAABXRyZWVzWyNMAAAAAAAAAAF7TAAAAAAAAAAMYmFzZV93
        ZWlnaHRzWyRkI0wAAAAAAAAAA71FZ/I/b/nTvtpI6kwAAAAAAAAACmNhdGVnb3JpZXNbJGwjTAAAAAAAAAADAAAAAAAAAAEAAAAD
        TAAAAAAAAAAQY2F0ZWdvcmllc19ub2Rlc1skbCNMAAAAAAAAAAEAAAAATAAAAAAAAAATY2F0ZWdvcmllc19zZWdtZW50c1skTCNM
        AAAAAAAAAAEAAAAAAAAAAEwAAAAAAAAAEGNhdGVnb3JpZXNfc2l6ZXNbJEwjTAAAAAAAAAABAAAAAAAAAANMAAAAAAAAAAxkZWZh
        dWx0X2xlZnRbJFUjTAAAAAAAAAADAQAATAAAAAAAAAACaWRpAEwAAAAAAAAADWxlZnRfY2hpbGRyZW5bJGwjTAAAAAAAAAADAAAA
        Af//////////TAAAAAAAAAAMbG9zc19jaGFuZ2VzWyRkI0wAAAAAAAAAA0O+DUoAAAAAAAAAAEwAAAAAAAAAB3BhcmVudHNbJGwj
        TAAAAAAAAAADf////wAAAAAAAAAATAAAAAAAAAAOcmlnaHRfY2hpbGRyZW5bJGwjTAAAAAAAAAADAAAAAv//////////TAAAAAAA
        AAAQc3BsaXRfY29uZGl0aW9uc1skZCNMAAAAAAAAAAN/wAAAP2/5077aSOpMAAAAAAAAAA1zcGxpdF9pbmRpY2VzWyRsI0wAAAAA
        AAAAAwAAAAAAAAAAAAAAAEwAAAAAAAAACnNwbGl0X3R5cGVbJFUjTAAAAAAAAAADAQAATAAAAAAAAAALc3VtX2hlc3NpYW5bJGQj
        TAAAAAAAAAADQqp5o0HK3Y1Cb4SATAAAAAAAAAAKdHJlZV9wYXJhbXtMAAAAAAAAAAtudW1fZGVsZXRlZFNMAAAAAAAAAAEwTAAA
        AAAAAAALbnVtX2ZlYXR1cmVTTAAAAAAAAAABMUwAAAAAAAAACW51bV9ub2Rlc1NMAAAAAAAAAAEzTAAAAAAAAAAQc2l6ZV9sZWFm
        X3ZlY3RvclNMAAAAAAAAAAExfX19TAAAAAAAAAAEbmFtZVNMAAAAAAAAAAZnYnRyZWV9TAAAAAAAAAATbGVhcm5lcl9tb2RlbF9w
        YXJhbXtMAAAAAAAAAApiYXNlX3Njb3JlU0wAAAAAAAAACzMuMDc4OTA1RS0xTAAAAAAAAAASYm9vc3RfZnJvbV9hdmVyYWdlU0wA
        AAAAAAAAATFMAAAAAAAAAAludW1fY2xhc3NTTAAAAAAAAAABMEwAAAAAAAAAC251bV9mZWF0dXJlU0wAAAAAAAAAATFMAAAAAAAA
        AApudW1fdGFyZ2V0U0wAAAAAAAAAATF9TAAAAAAAAAAJb2JqZWN0aXZle0wAAAAAAAAABG5hbWVTTAAAAAAAAAAPYmluYXJ5Omxv
        Z2lzdGljTAAAAAAAAAAOcmVnX2xvc3NfcGFyYW17TAAAAAAAAAAQc2NhbGVfcG9zX3dlaWdodFNMAAAAAAAAAAExfX19TAAAAAAA
        AAAHdmVyc2lvblsjTAAAAAAAAAADaQJpAWkEfQ==
        """, options: .ignoreUnknownCharacters)!)

    func refusal(_ bytes: [UInt8]) -> ModelImportError? {
        do {
            _ = try XGBoostImporter.importModel(jsonBytes: bytes, options: ImporterRefusalTests.options)
            return nil
        } catch {
            return error
        }
    }

    @Test func categoricalModelsOfXGBoost2AreRefusedAsCategorical() {
        #expect(refusal(Array(Self.categorical214.utf8)) == .categoricalFeatureNotSupported(feature: 0))
        #expect(refusal(Self.categorical214UBJSON) == .categoricalFeatureNotSupported(feature: 0))
    }

    @Test func categoricalModelsOfXGBoost1AreRefusedAsCategorical() {
        #expect(refusal(Array(Self.categorical176.utf8)) == .categoricalFeatureNotSupported(feature: 0))
        // Without the feature types, the split type still says it.
        let untyped = Self.categorical176.replacingOccurrences(of: #""feature_types":["c"]"#, with: #""feature_types":["q"]"#)
        #expect(refusal(Array(untyped.utf8)) == .categoricalSplitsNotSupported(tree: 0))
    }

    @Test func multiTargetModelsOfXGBoost2AreRefusedAsMultiTarget() {
        #expect(refusal(Array(Self.multiTarget214.utf8)) == .multiClassNotSupported("num_target 2"))
    }

    /// NaN in a model that is otherwise supported is still the file's fault, and said as before.
    @Test func aNaNInAnOrdinaryTreeIsStillASyntaxError() {
        let numerical = Self.categorical214
            .replacingOccurrences(of: #""feature_types":["c"]"#, with: #""feature_types":["q"]"#)
            .replacingOccurrences(of: #""split_type":[1,0,0]"#, with: #""split_type":[0,0,0]"#)
            .replacingOccurrences(of: #""categories":[0,1,3],"categories_nodes":[0],"categories_segments":[0],"categories_sizes":[3]"#,
                                  with: #""categories":[],"categories_nodes":[],"categories_segments":[],"categories_sizes":[]"#)
        guard case .malformed(let detail) = refusal(Array(numerical.utf8)) else {
            Issue.record("a NaN split condition must be refused as malformed")
            return
        }
        #expect(detail.contains("JSON syntax error at byte"), "\(detail)")
        #expect(detail.contains("'NaN' is not a JSON number"), "\(detail)")
    }
}
