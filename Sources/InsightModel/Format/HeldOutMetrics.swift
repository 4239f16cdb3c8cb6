/// Quality of the model on held-out rows, recorded at training (or import) time.
public struct HeldOutMetrics: Codable, Sendable, Hashable {
    public var rows: Int
    public var positives: Int?
    public var auc: Double
    public var prAUC: Double
    public var logLoss: Double
    /// Precision and recall when predicting positive at p >= `thresholds.medium`.
    public var atMedium: PrecisionRecall
    /// Precision and recall when predicting positive at p >= `thresholds.high`.
    public var atHigh: PrecisionRecall

    public init(
        rows: Int, positives: Int? = nil, auc: Double, prAUC: Double, logLoss: Double,
        atMedium: PrecisionRecall, atHigh: PrecisionRecall
    ) {
        self.rows = rows
        self.positives = positives
        self.auc = auc
        self.prAUC = prAUC
        self.logLoss = logLoss
        self.atMedium = atMedium
        self.atHigh = atHigh
    }
}

public struct PrecisionRecall: Codable, Sendable, Hashable {
    public var precision: Double
    public var recall: Double

    public init(precision: Double, recall: Double) {
        self.precision = precision
        self.recall = recall
    }
}
