import InsightModel

/// Where the model is going and where its data came from: what the model document records besides the trees.
public struct ModelExportContext: Sendable {
    public var insightType: String
    public var category: String
    public var version: String
    /// RFC 3339 UTC; passed in so that the same training run writes the same bytes.
    public var createdAt: String
    public var trainingFileName: String
    public var validationFileName: String
    public var toolVersion: String

    public init(
        insightType: String, category: String, version: String, createdAt: String,
        trainingFileName: String, validationFileName: String, toolVersion: String
    ) {
        self.insightType = insightType
        self.category = category
        self.version = version
        self.createdAt = createdAt
        self.trainingFileName = trainingFileName
        self.validationFileName = validationFileName
        self.toolVersion = toolVersion
    }
}

extension TrainedModel {
    /// The model in the project's format: float32 `x < t` semantics, trees in boosting order, thresholds and
    /// validation metrics in the metadata.
    public func modelDocument(_ context: ModelExportContext) -> ModelDocument {
        let metrics = HeldOutMetrics(
            rows: validationMetrics.rows, positives: validationMetrics.positives, auc: validationMetrics.auc,
            prAUC: validationMetrics.averagePrecision, logLoss: validationMetrics.logLoss,
            atMedium: PrecisionRecall(precision: thresholds.precisionAtMedium, recall: thresholds.recallAtMedium),
            atHigh: PrecisionRecall(precision: thresholds.precisionAtHigh, recall: thresholds.recallAtHigh))
        let provenance = TrainingProvenance(
            source: "trained", tool: "trust-insights train \(context.toolVersion)",
            parameters: provenanceParameters(context),
            dataDescription: "train \(context.trainingFileName): \(trainingRows) rows, \(trainingPositives) positive; "
                + "validation \(context.validationFileName): \(validationRows) rows, \(validationPositives) positive")
        let metadata = ModelMetadata(
            insightType: context.insightType, category: context.category, version: context.version,
            createdAt: context.createdAt, training: provenance, heldOutMetrics: metrics)
        return ModelDocument.float32(
            featureNames: featureNames, baseMargin: baseMargin, trees: trees.map { $0.nestedRoot() },
            thresholds: RiskThresholds(medium: thresholds.medium, high: thresholds.high), metadata: metadata)
    }

    /// Parameter names as the CLI spells them, plus what the run decided (best iteration, threshold rules).
    /// Threads are left out: they never change the model, and the same model should give the same bytes.
    func provenanceParameters(_ context: ModelExportContext) -> [String: String] {
        var parameters = allParameters(context)
        // XGBoost records `best_iteration` only when early stopping chose it; without, every round is kept and the
        // last one says nothing about the validation loss, so the round where it was lowest is recorded instead.
        if keepsEveryRound {
            parameters["best-iteration"] = nil
            parameters["lowest-validation-loss-iteration"] = "\(lowestValidationLossIteration)"
        }
        return parameters
    }

    private func allParameters(_ context: ModelExportContext) -> [String: String] {
        [
            "trees": "\(parameters.trees)",
            "max-depth": "\(parameters.maxDepth)",
            "learning-rate": "\(parameters.learningRate)",
            "min-child-weight": "\(parameters.minChildWeight)",
            "lambda": "\(parameters.lambda)",
            "min-split-gain": "\(parameters.minSplitGain)",
            "subsample": "\(parameters.subsample)",
            "colsample": "\(parameters.columnSample)",
            "early-stopping-rounds": "\(parameters.earlyStoppingRounds)",
            "seed": "\(parameters.seed)",
            "bins": "\(parameters.maxBins)",
            "best-iteration": "\(bestIteration)",
            "rounds-trained": "\(roundsTrained)",
            "train-file": context.trainingFileName,
            "train-rows": "\(trainingRows)",
            "valid-file": context.validationFileName,
            "valid-rows": "\(validationRows)",
            "high-precision": "\(thresholds.rule.highPrecision)",
            "medium-recall": "\(thresholds.rule.mediumRecall)",
            "high-rule": thresholds.highChoice.rawValue,
            "medium-rule": thresholds.mediumChoice.rawValue,
        ]
    }
}

extension TrainedTree {
    func nestedRoot() -> TreeNode { nested(0) }

    private func nested(_ index: Int) -> TreeNode {
        let node = nodes[index]
        if node.isLeaf { return .leaf(value: node.value, cover: node.cover) }
        return .split(
            feature: node.feature, threshold: node.threshold, defaultLeft: node.defaultLeft,
            left: nested(node.left), right: nested(node.right), cover: node.cover)
    }
}
