extension HeldOutMetrics {
    /// Measures `model` on labelled rows (labels 0/1), at the model's own medium and high thresholds.
    public static func measure(_ model: CompiledModel, rows: FeatureMatrix, labels: [Int]) -> HeldOutMetrics {
        precondition(labels.count == rows.rowCount, "one label per row")
        let document = model.document
        let probabilities = model.margins(for: rows).map { document.probability(margin: $0) }
        let thresholds = model.thresholds
        return HeldOutMetrics(
            rows: labels.count,
            positives: labels.filter { $0 == 1 }.count,
            auc: ClassificationMetrics.auc(labels: labels, scores: probabilities),
            prAUC: ClassificationMetrics.prAUC(labels: labels, scores: probabilities),
            logLoss: ClassificationMetrics.logLoss(labels: labels, probabilities: probabilities),
            atMedium: ClassificationMetrics.precisionRecall(labels: labels, probabilities: probabilities, threshold: thresholds.medium),
            atHigh: ClassificationMetrics.precisionRecall(labels: labels, probabilities: probabilities, threshold: thresholds.high))
    }
}
