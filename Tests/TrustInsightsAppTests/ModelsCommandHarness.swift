import FoundationEssentials
import Synchronization

@testable import TrustInsightsApp

/// Runs `trust-insights models ...` in a fresh directory of its own, with small source models to import.
final class ModelsCommandHarness {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("models-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func write(_ text: String, to name: String) throws {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
    }

    /// Status, standard output and standard error of one run.
    func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        let run = CommandRun(arguments)
        return (run.status, run.output, run.errors)
    }

    /// `models import` of `source` (a file in the directory) to `out`, as isLikelyBeingCoached/payment.
    func importModel(
        _ source: String, from library: String, to out: String, version: String = "2027.01.1", _ extra: [String] = []
    ) -> (status: Int32, output: String, errors: String) {
        run(["models", "import", "--from", library, "--insight", "isLikelyBeingCoached", "--category", "payment",
             "--version", version, "--out", path(out)] + extra + [path(source)])
    }

    /// The margins `models score` writes for `csv` (the text of a CSV file).
    func scores(model: String, csv: String) throws -> (status: Int32, margins: [String], errors: String) {
        try write(csv, to: "rows.csv")
        let result = run(["models", "score", "--model", path(model), "--input", path("rows.csv")])
        let lines = result.output.split(separator: "\n").dropFirst()
        return (result.status, lines.map { String($0.split(separator: ",")[0]) }, result.errors)
    }

    /// An XGBoost stump over one feature: x < 0.5 scores -0.25, else (or missing) 0.75.
    static let xgboostOneFeature = """
        {"learner":{"attributes":{},"feature_names":[],"feature_types":[],
         "gradient_booster":{"model":{"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"1"},"tree_info":[0],
          "trees":[{"base_weights":[0,0,0],"categories":[],"categories_nodes":[],"categories_segments":[],
            "categories_sizes":[],"default_left":[0,0,0],"id":0,"left_children":[1,-1,-1],
            "loss_changes":[1,0,0],"parents":[2147483647,0,0],"right_children":[2,-1,-1],
            "split_conditions":[5E-1,-2.5E-1,7.5E-1],"split_indices":[0,0,0],"split_type":[0,0,0],
            "sum_hessian":[10,4,6],"tree_param":{"num_deleted":"0","num_feature":"1","num_nodes":"3","size_leaf_vector":"1"}}]},
          "name":"gbtree"},
         "learner_model_param":{"base_score":"5E-1","boost_from_average":"1","num_class":"0","num_feature":"1","num_target":"1"},
         "objective":{"name":"binary:logistic","reg_loss_param":{"scale_pos_weight":"1"}}},
         "version":[3,2,0]}
        """

    /// A LightGBM stump over features a and b: b <= 0.5 scores -0.25, else 0.75.
    static func lightGBMStump(featureNames: String = "a b", objective: String = "binary sigmoid:1") -> String {
        """
        tree
        version=v4
        num_class=1
        num_tree_per_iteration=1
        label_index=0
        max_feature_idx=1
        objective=\(objective)
        feature_names=\(featureNames)
        feature_infos=[0:1] [0:1]
        tree_sizes=100

        Tree=0
        num_leaves=2
        num_cat=0
        split_feature=1
        split_gain=1
        threshold=0.5
        decision_type=2
        left_child=-1
        right_child=-2
        leaf_value=-0.25 0.75
        leaf_weight=4 6
        leaf_count=4 6
        internal_value=0
        internal_weight=10
        internal_count=10
        shrinkage=1


        end of trees
        """
    }
}
