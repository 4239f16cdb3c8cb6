import Foundation
import Testing

@testable import InsightTraining

@Suite struct ThresholdRuleTests {
    // Scores from high to low with their labels: precision falls as the threshold is lowered.
    let scores: [Double] = [0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05]
    let labels: [UInt8] = [1, 1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0]

    /// A NaN score is a level of its own, not an endless loop (the trainer once gave one, and the ranking then
    /// appended levels until memory ran out).
    @Test func aNaNScoreEndsTheRankingLikeAnyOther() {
        let ranked = RankedScores(scores: [0.5, .nan, 0.2, 0.5, .nan], labels: [1, 0, 1, 0, 1])
        #expect(ranked.positives == 3 && ranked.negatives == 2)
        #expect(ranked.levels.last?.truePositives == 3 && ranked.levels.last?.falsePositives == 2)
        #expect(ranked.levels.count <= 5)
    }

    @Test func highIsTheLowestScoreMeetingThePrecisionTarget() {
        let selection = ThresholdRule(highPrecision: 0.8, mediumRecall: 0.8).select(probabilities: scores, labels: labels)
        // p >= 0.7 flags 5 rows, 4 positive: precision 0.8; lower thresholds fall below it.
        #expect(selection.high == 0.7)
        #expect(selection.highChoice == .precisionTarget)
        #expect(selection.precisionAtHigh >= 0.8)
        #expect(abs(selection.recallAtHigh - 4.0 / 6.0) < 1e-12)
    }

    @Test func mediumIsTheHighestScoreMeetingTheRecallTarget() {
        let selection = ThresholdRule(highPrecision: 0.8, mediumRecall: 0.8).select(probabilities: scores, labels: labels)
        // Recall reaches 5/6 >= 0.8 first at 0.5.
        #expect(selection.medium == 0.5)
        #expect(selection.mediumChoice == .recallTarget)
        #expect(selection.recallAtMedium >= 0.8)
        #expect(selection.medium < selection.high)
    }

    @Test func mediumDropsBelowHighWhenTheRecallRuleWouldReachIt() {
        // A low recall target is met above the high threshold.
        let selection = ThresholdRule(highPrecision: 0.8, mediumRecall: 0.3).select(probabilities: scores, labels: labels)
        #expect(selection.high == 0.7)
        #expect(selection.medium == 0.6)
        #expect(selection.mediumChoice == .belowHigh)
    }

    /// Scores that rounded to exactly 0 and 1: the recall rule would need a threshold of 0, which the format does
    /// not allow, so the threshold kept (the smallest positive double) misses the target, and the rule says so
    /// rather than `recallTarget` (training probe, 6 December).
    @Test func aRecallTargetOnlyZeroReachesIsRecordedAsUnreachable() {
        let saturated: [Double] = [1, 0, 0, 0, 0, 0]
        let saturatedLabels: [UInt8] = [1, 1, 1, 0, 0, 0]
        let selection = ThresholdRule(highPrecision: 0.8, mediumRecall: 0.8).select(probabilities: saturated, labels: saturatedLabels)
        #expect(selection.medium > 0 && selection.medium < selection.high && selection.high < 1)
        #expect(selection.mediumChoice == .recallTargetUnreachable)
        #expect(abs(selection.recallAtMedium - 1.0 / 3.0) < 1e-12)
        // Reachable inside (0, high): the usual rule.
        let reachable = ThresholdRule(highPrecision: 0.8, mediumRecall: 0.3).select(probabilities: saturated, labels: saturatedLabels)
        #expect(reachable.mediumChoice != .recallTargetUnreachable)
    }

    /// Probabilities of exactly 0 or 1 are clipped at the float64 machine epsilon, as scikit-learn's `log_loss` does
    /// since 1.5 (1e-15 before, which gave 31.06 where scikit-learn says 32.41).
    @Test func logLossClipsAtTheMachineEpsilon() {
        let loss = BinaryMetrics.logLoss(probabilities: [0, 1, 0.5], labels: [1, 0, 1])
        let expected = (-2 * log(Double.ulpOfOne) + log(2)) / 3
        #expect(abs(loss - expected) < 1e-12)
    }

    @Test func unattainablePrecisionFallsBackToTheBestPrecision() {
        let flat: [Double] = [0.9, 0.8, 0.7, 0.6]
        let flatLabels: [UInt8] = [0, 1, 0, 0]
        let selection = ThresholdRule(highPrecision: 0.95, mediumRecall: 0.8).select(probabilities: flat, labels: flatLabels)
        #expect(selection.highChoice == .bestPrecisionFallback)
        #expect(selection.high == 0.8)
        #expect(selection.medium < selection.high)
    }

    @Test func thresholdsOfATrainedModelMeetTheirTargets() throws {
        let train = SyntheticData.separable(rows: 2000, seed: 31)
        let valid = SyntheticData.separable(rows: 1000, seed: 32)
        let model = try GBDTTrainer(parameters: SyntheticData.smallParameters()).train(train: train, valid: valid)
        let thresholds = model.thresholds
        #expect(thresholds.medium < thresholds.high)
        #expect(thresholds.medium > 0 && thresholds.high < 1)
        #expect(thresholds.highChoice == .precisionTarget)
        #expect(thresholds.precisionAtHigh >= 0.8)
        #expect(thresholds.recallAtMedium >= 0.8)
    }

    @Test func metricsMatchHandComputedValues() {
        // Two positives above two negatives except one swap: AUC 3/4; ties count half.
        let metrics = BinaryMetrics(probabilities: [0.9, 0.6, 0.7, 0.2], labels: [1, 1, 0, 0])
        #expect(metrics.auc == 0.75)
        // AP: recall 0.5 at precision 1, recall 1 at precision 2/3.
        #expect(abs(metrics.averagePrecision - (0.5 * 1 + 0.5 * 2.0 / 3.0)) < 1e-12)
        let tied = BinaryMetrics(probabilities: [0.5, 0.5], labels: [1, 0])
        #expect(tied.auc == 0.5)
    }
}
