import Glibc

/// Ranking and calibration metrics for binary labels and predicted probabilities.
public enum ClassificationMetrics {
    /// Area under the ROC curve, ties counted half (Mann-Whitney).
    public static func auc(labels: [Int], scores: [Double]) -> Double {
        let order = scores.indices.sorted { scores[$0] < scores[$1] }
        var rankSumPositive = 0.0
        var positives = 0.0
        var index = 0
        while index < order.count {
            var end = index
            while end + 1 < order.count, scores[order[end + 1]] == scores[order[index]] { end += 1 }
            let averageRank = Double(index + end) / 2 + 1
            for position in index...end where labels[order[position]] == 1 {
                rankSumPositive += averageRank
                positives += 1
            }
            index = end + 1
        }
        let negatives = Double(scores.count) - positives
        guard positives > 0, negatives > 0 else { return .nan }
        return (rankSumPositive - positives * (positives + 1) / 2) / (positives * negatives)
    }

    /// Area under the precision-recall curve as average precision (step-wise, ties grouped).
    public static func prAUC(labels: [Int], scores: [Double]) -> Double {
        let order = scores.indices.sorted { scores[$0] > scores[$1] }
        let totalPositives = Double(labels.filter { $0 == 1 }.count)
        guard totalPositives > 0 else { return .nan }
        var truePositives = 0.0
        var seen = 0.0
        var area = 0.0
        var index = 0
        while index < order.count {
            var end = index
            var groupPositives = 0.0
            while true {
                if labels[order[end]] == 1 { groupPositives += 1 }
                if end + 1 < order.count, scores[order[end + 1]] == scores[order[index]] { end += 1 } else { break }
            }
            seen += Double(end - index + 1)
            truePositives += groupPositives
            area += (groupPositives / totalPositives) * (truePositives / seen)
            index = end + 1
        }
        return area
    }

    /// Mean negative log-likelihood, probabilities clipped to [eps, 1 - eps] with eps the float64 machine epsilon
    /// (2.2e-16), as scikit-learn's `log_loss` does since 1.5 (it clipped at 1e-15 before).
    public static func logLoss(labels: [Int], probabilities: [Double]) -> Double {
        var total = 0.0
        for (label, probability) in zip(labels, probabilities) {
            let p = min(max(probability, Double.ulpOfOne), 1 - Double.ulpOfOne)
            total -= label == 1 ? log(p) : log(1 - p)
        }
        return total / Double(max(labels.count, 1))
    }

    /// Precision and recall when predicting positive at `probability >= threshold`.
    public static func precisionRecall(labels: [Int], probabilities: [Double], threshold: Double) -> PrecisionRecall {
        var truePositives = 0.0
        var predicted = 0.0
        var positives = 0.0
        for (label, probability) in zip(labels, probabilities) {
            if label == 1 { positives += 1 }
            if probability >= threshold {
                predicted += 1
                if label == 1 { truePositives += 1 }
            }
        }
        return PrecisionRecall(
            precision: predicted > 0 ? truePositives / predicted : 0, recall: positives > 0 ? truePositives / positives : 0)
    }
}
