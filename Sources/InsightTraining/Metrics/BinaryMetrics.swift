#if canImport(Glibc)
import Glibc
#endif

/// Ranking and calibration quality of probabilities against 0/1 labels.
public struct BinaryMetrics: Sendable, Hashable, Codable {
    public var rows: Int
    public var positives: Int
    /// Area under the ROC curve, ties counted half (the Mann-Whitney statistic).
    public var auc: Double
    /// Average precision: sum over distinct thresholds of (recall step) x precision, as scikit-learn computes it.
    public var averagePrecision: Double
    public var logLoss: Double

    public init(probabilities: [Double], labels: [UInt8]) {
        precondition(probabilities.count == labels.count)
        rows = labels.count
        positives = labels.reduce(0) { $0 + Int($1) }
        logLoss = Self.logLoss(probabilities: probabilities, labels: labels)
        let curve = RankedScores(scores: probabilities, labels: labels)
        auc = curve.auc
        averagePrecision = curve.averagePrecision
    }

    static func logLoss(probabilities: [Double], labels: [UInt8]) -> Double {
        guard !labels.isEmpty else { return 0 }
        var total = 0.0
        for (p, y) in zip(probabilities, labels) {
            let clamped = min(max(p, Double.ulpOfOne), 1 - Double.ulpOfOne)
            total -= y == 1 ? log(clamped) : log(1 - clamped)
        }
        return total / Double(labels.count)
    }
}
