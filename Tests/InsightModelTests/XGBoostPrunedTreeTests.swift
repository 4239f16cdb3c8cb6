import Testing
@testable import InsightModel

/// XGBoost's `prune` updater (`process_type=update`) turns splits back into leaves and keeps the deleted children in
/// the arrays, marked with split index 2147483647 and counted in `num_deleted`.
@Suite struct XGBoostPrunedTreeTests {
    /// Root: x0 < 0.5 goes to node 1 (leaf -0.25), else to node 4 (leaf 0.75); nodes 2 and 3 are the deleted
    /// children of node 1, between the live nodes.
    static func pruned(numDeleted: String = "2", right: String = "4") -> [UInt8] {
        let json = """
            {"learner":{"attributes":{},"feature_names":[],"feature_types":[],
             "gradient_booster":{"model":{"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"1"},"tree_info":[0],
              "trees":[{"base_weights":[0,0,0,0,0],"categories":[],"categories_nodes":[],"categories_segments":[],
                "categories_sizes":[],"default_left":[1,0,1,1,0],"id":0,"left_children":[1,-1,-1,-1,-1],
                "loss_changes":[1,0,0,0,0],"parents":[2147483647,0,1,1,0],"right_children":[\(right),-1,-1,-1,-1],
                "split_conditions":[5E-1,-2.5E-1,3E0,4E0,7.5E-1],"split_indices":[0,0,2147483647,2147483647,0],
                "split_type":[0,0,0,0,0],"sum_hessian":[10,4,2,2,6],
                "tree_param":{"num_deleted":"\(numDeleted)","num_feature":"2","num_nodes":"5","size_leaf_vector":"1"}}]},
              "name":"gbtree"},
             "learner_model_param":{"base_score":"5E-1","boost_from_average":"1","num_class":"0","num_feature":"2","num_target":"1"},
             "objective":{"name":"binary:logistic","reg_loss_param":{"scale_pos_weight":"1"}}},
             "version":[3,2,0]}
            """
        return Array(json.utf8)
    }

    @Test func importsAPrunedTreeWithoutItsDeletedNodes() throws {
        let document = try XGBoostImporter.importModel(jsonBytes: Self.pruned(), options: ImporterRefusalTests.options)
        let tree = try #require(document.trees.first)
        #expect(tree.leftChildren == [1, -1, -1])
        #expect(tree.rightChildren == [2, -1, -1])
        #expect(tree.leafValues == [0, -0.25, 0.75])
        #expect(tree.covers == [10, 4, 6])
        let model = try CompiledModel(document: document)
        #expect(model.margin(for: [0.4, 0]) == -0.25)
        #expect(model.margin(for: [0.5, 0]) == 0.75)
        #expect(model.margin(for: [.nan, 0]) == -0.25)
    }

    @Test func refusesUnreachableNodesTheFileDoesNotCountAsDeleted() {
        #expect(throws: ModelImportError.malformed("tree 0: num_deleted is 1 but 2 nodes are unreachable from the root")) {
            try XGBoostImporter.importModel(jsonBytes: Self.pruned(numDeleted: "1"), options: ImporterRefusalTests.options)
        }
    }

    /// Without `num_deleted`, an unreachable node is damage, refused by validation as before.
    @Test func leavesOtherUnreachableNodesToValidation() throws {
        let document = try XGBoostImporter.importModel(jsonBytes: Self.pruned(numDeleted: "0"), options: ImporterRefusalTests.options)
        #expect(throws: ModelValidationError(.unreachableNode(tree: 0, node: 2))) { try CompiledModel(document: document) }
    }

    /// A structure that is not a tree is not renumbered: validation names the node.
    @Test func leavesABrokenTreeToValidation() throws {
        let document = try XGBoostImporter.importModel(
            jsonBytes: Self.pruned(right: "9"), options: ImporterRefusalTests.options)
        #expect(throws: ModelValidationError(.childOutOfRange(tree: 0, node: 0))) { try CompiledModel(document: document) }
    }
}
