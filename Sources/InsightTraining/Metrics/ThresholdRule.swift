/// How the `medium` and `high` probability thresholds are chosen from validation scores (docs/TRAINING.md):
///
/// - `high` is the lowest validation score s at which flagging every row with p >= s reaches `highPrecision`:
///   the most rows flagged high at that precision. If no score reaches it, `high` is the score with the best
///   precision (the lowest such score on a tie).
/// - `medium` is the highest validation score s at which flagging every row with p >= s reaches `mediumRecall`.
/// - `medium < high` always: if the recall rule lands at or above `high`, `medium` becomes the next lower
///   distinct validation score, or the float just below `high` when there is none.
public struct ThresholdRule: Sendable, Hashable, Codable {
    public var highPrecision: Double = 0.80
    public var mediumRecall: Double = 0.80

    public init(highPrecision: Double = 0.80, mediumRecall: Double = 0.80) {
        self.highPrecision = highPrecision
        self.mediumRecall = mediumRecall
    }
}

/// The thresholds a rule chose and how they score on the validation data.
public struct ThresholdSelection: Sendable, Hashable, Codable {
    public enum HighChoice: String, Sendable, Hashable, Codable {
        case precisionTarget
        case bestPrecisionFallback
    }

    public enum MediumChoice: String, Sendable, Hashable, Codable {
        case recallTarget
        /// The recall rule landed at or above `high`; the next lower score was used.
        case belowHigh
        /// The recall target needs a threshold of 0 (validation scores that rounded to 0) or one at or above
        /// `high`, which the model format does not allow: the threshold used misses the target.
        case recallTargetUnreachable
    }

    public var rule: ThresholdRule
    public var medium: Double
    public var high: Double
    public var highChoice: HighChoice
    public var mediumChoice: MediumChoice
    public var precisionAtMedium: Double
    public var recallAtMedium: Double
    public var precisionAtHigh: Double
    public var recallAtHigh: Double
}

extension ThresholdRule {
    /// Applies the rule to validation probabilities. Needs at least one positive and one negative.
    public func select(probabilities: [Double], labels: [UInt8]) -> ThresholdSelection {
        select(ranked: RankedScores(scores: probabilities, labels: labels), probabilities: probabilities, labels: labels)
    }

    func select(ranked: RankedScores, probabilities: [Double], labels: [UInt8]) -> ThresholdSelection {
        let levels = ranked.levels
        precondition(!levels.isEmpty)
        var highIndex: Int?
        for index in levels.indices where ranked.precision(levels[index]) >= highPrecision {
            highIndex = index
        }
        var highChoice = ThresholdSelection.HighChoice.precisionTarget
        if highIndex == nil {
            highChoice = .bestPrecisionFallback
            var best = -1.0
            for index in levels.indices where ranked.precision(levels[index]) >= best {
                best = ranked.precision(levels[index])
                highIndex = index
            }
        }
        let high = highIndex!
        var medium = levels.firstIndex { ranked.recall($0) >= mediumRecall } ?? (levels.count - 1)
        var mediumChoice = ThresholdSelection.MediumChoice.recallTarget
        var mediumScore = levels[medium].score
        if medium <= high {
            mediumChoice = .belowHigh
            medium = high + 1
            mediumScore = medium < levels.count ? levels[medium].score : levels[high].score.nextDown
        }
        // The model format wants 0 < medium < high < 1; probabilities of extreme margins round to 0 or 1.
        let highScore = min(levels[high].score, Double(1).nextDown)
        mediumScore = min(max(mediumScore, Double.leastNormalMagnitude), highScore.nextDown)
        let atHigh = Self.precisionRecall(threshold: highScore, probabilities: probabilities, labels: labels)
        let atMedium = Self.precisionRecall(threshold: mediumScore, probabilities: probabilities, labels: labels)
        // Clamped into (0, high), the threshold may no longer flag what the rule counted (scores of exactly 0): say
        // so, rather than record a rule whose target the model misses (training probe, 6 December).
        if mediumChoice == .recallTarget && atMedium.recall < mediumRecall { mediumChoice = .recallTargetUnreachable }
        return ThresholdSelection(
            rule: self, medium: mediumScore, high: highScore, highChoice: highChoice, mediumChoice: mediumChoice,
            precisionAtMedium: atMedium.precision, recallAtMedium: atMedium.recall,
            precisionAtHigh: atHigh.precision, recallAtHigh: atHigh.recall)
    }

    /// Precision and recall of flagging p >= threshold, counted directly so they match the runtime's rule.
    static func precisionRecall(threshold: Double, probabilities: [Double], labels: [UInt8]) -> (precision: Double, recall: Double) {
        var truePositives = 0
        var flagged = 0
        var positives = 0
        for (p, y) in zip(probabilities, labels) {
            positives += Int(y)
            if p >= threshold {
                flagged += 1
                truePositives += Int(y)
            }
        }
        return (Double(truePositives) / Double(max(flagged, 1)), Double(truePositives) / Double(max(positives, 1)))
    }
}
