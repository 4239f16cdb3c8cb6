import Testing
@testable import InsightModel

/// Objectives other than the two canonical ones that predict through the same logistic link, so that their models
/// import to the same trees and base margin, and score to the libraries' own predictions by the parity the canonical
/// objective has with its fixtures.
@Suite struct ImporterObjectiveTests {
    typealias Source = ImporterRefusalTests

    static func xgboost(objective: String, baseScore: String) throws -> ModelDocument {
        try XGBoostImporter.importModel(
            jsonBytes: Source.xgboost(objective: objective, baseScore: baseScore), options: Source.options)
    }

    static func lightGBM(objective: String) throws -> ModelDocument {
        try LightGBMImporter.importModel(text: Source.lightGBM(objective: objective), options: Source.options)
    }

    /// XGBoost's `reg:logistic` and `binary:logistic` share their loss's `PredTransform` (the sigmoid) and
    /// `ProbToMargin` (the logit of `base_score`); only the labels they train on differ.
    @Test(arguments: ["5E-1", "3.93E-1", "1E-7"])
    func xgboostRegLogisticImportsAsBinaryLogistic(baseScore: String) throws {
        let regression = try Self.xgboost(objective: "reg:logistic", baseScore: baseScore)
        let binary = try Self.xgboost(objective: "binary:logistic", baseScore: baseScore)
        #expect(regression.objective == .binaryLogistic)
        #expect(regression.baseMargin == binary.baseMargin)
        #expect(regression.trees == binary.trees)
        #expect(regression.metadata.training.parameters["objective"] == "reg:logistic")
    }

    /// LightGBM's `CrossEntropy::ConvertOutput` is 1 / (1 + exp(-x)), as `BinaryLogloss`'s is with sigmoid 1.
    @Test func lightGBMCrossEntropyImportsAsBinaryWithSigmoidOne() throws {
        let crossEntropy = try Self.lightGBM(objective: "cross_entropy")
        let binary = try Self.lightGBM(objective: "binary sigmoid:1")
        #expect(crossEntropy.objective == .binaryLogistic)
        #expect(crossEntropy.baseMargin == binary.baseMargin)
        #expect(crossEntropy.trees == binary.trees)
        #expect(crossEntropy.sumDivisor == binary.sumDivisor)
        #expect(crossEntropy.metadata.training.parameters["objective"] == "cross_entropy")
    }

    /// `binary:logitraw` trains the logistic loss and predicts the margin; XGBoost (since 1.4) adds base_score to it
    /// as it stands, where binary:logistic adds its logit. Checked against XGBoost 3.2.0, which stored `[2E-1]` for
    /// `base_score=0.2` and predicted margins of 0.2 plus the leaves (`LibraryParityTests` trains one).
    @Test(arguments: ["5E-1", "[2E-1]", "-2E0", "[3.5E0]", "0E0"])
    func xgboostLogitrawImportsItsBaseScoreAsTheMargin(baseScore: String) throws {
        let raw = try Self.xgboost(objective: "binary:logitraw", baseScore: baseScore)
        let parsed = Float(baseScore.trimmingCharacters(in: ["[", "]"]))!
        #expect(raw.baseMargin == Double(parsed))
        #expect(raw.objective == .binaryLogistic && raw.sigmoidScale == nil)
        #expect(raw.metadata.training.parameters["objective"] == "binary:logitraw")
        #expect(raw.metadata.training.parameters["base_score_bounded_to"] == nil)
        if (0...1).contains(parsed) {
            #expect(try Self.xgboost(objective: "binary:logistic", baseScore: baseScore).trees == raw.trees)
        }
    }

    @Test(arguments: ["1E39", "[nan]", "abc", "0x1p1", "[1E0,2E0]"])
    func xgboostLogitrawRefusesABaseScoreThatIsNoFiniteNumber(baseScore: String) {
        #expect(throws: ModelImportError.self) { try Self.xgboost(objective: "binary:logitraw", baseScore: baseScore) }
        #expect(ModelImportError.badBaseMargin(baseScore).description.contains("not a finite number"))
    }

    /// LightGBM writes no objective line for a custom objective function (its predictions are then raw scores):
    /// refused, saying so.
    @Test func lightGBMWithoutAnObjectiveLineIsRefusedNamingACustomObjective() throws {
        let text = Source.lightGBM().replacingOccurrences(of: "objective=binary sigmoid:1\n", with: "")
        #expect(!text.contains("objective="))
        #expect(throws: ModelImportError.noObjective) {
            try LightGBMImporter.importModel(text: text, options: Source.options)
        }
        #expect(ModelImportError.noObjective.description.contains("custom objective function"))
    }

    /// `Booster.save_config()` output opens like a model (`learner`) but holds no trees: told what it is.
    @Test func xgboostConfigurationIsRefusedAsAConfiguration() throws {
        let configuration = """
            {"learner":{"generic_param":{"device":"cpu","nthread":"0","seed":"0"},
             "gradient_booster":{"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"0"},
              "gbtree_train_param":{"process_type":"default","tree_method":"auto","updater":"grow_quantile_histmaker"},
              "name":"gbtree","specified_updater":false,"tree_train_param":{"eta":"0.3","max_depth":"6"}},
             "learner_model_param":{"base_score":"5E-1","boost_from_average":"1","num_class":"0","num_feature":"4","num_target":"1"},
             "learner_train_param":{"booster":"gbtree","objective":"binary:logistic"},
             "objective":{"name":"binary:logistic","reg_loss_param":{"scale_pos_weight":"1"}}},
             "version":[3,2,0]}
            """
        #expect(throws: ModelImportError.configurationNotModel) {
            try XGBoostImporter.importModel(jsonBytes: Array(configuration.utf8), options: Source.options)
        }
        #expect(ModelImportError.configurationNotModel.description.contains("save_model('model.json')"))
    }

    /// Links that are not the logistic function, and names LightGBM itself does not load from a model file.
    @Test(arguments: ["binary:hinge", "reg:squarederror", "count:poisson", "rank:pairwise"])
    func xgboostRefusesOtherLinks(objective: String) {
        #expect(throws: ModelImportError.unsupportedObjective(objective)) {
            try Self.xgboost(objective: objective, baseScore: "5E-1")
        }
    }

    @Test(arguments: ["cross_entropy_lambda", "xentropy", "cross_entropy sigmoid:1", "regression", "huber"])
    func lightGBMRefusesOtherLinks(objective: String) {
        #expect(throws: ModelImportError.unsupportedObjective(objective)) {
            try Self.lightGBM(objective: objective)
        }
    }
}
