/// Scores grouped into distinct values from the highest down, with the positives and negatives at each: the one
/// pass that AUC, average precision and the threshold rule all read.
struct RankedScores: Sendable {
    struct Level: Sendable {
        var score: Double
        /// Rows scoring >= `score`.
        var truePositives: Int
        var falsePositives: Int
    }

    let levels: [Level]
    let positives: Int
    let negatives: Int

    init(scores: [Double], labels: [UInt8]) {
        let order = scores.indices.sorted { scores[$0] > scores[$1] }
        var levels: [Level] = []
        var truePositives = 0
        var falsePositives = 0
        var index = 0
        while index < order.count {
            let score = scores[order[index]]
            // At least one row per level: a NaN equals nothing, not even itself, and `while` would never move on
            // (an endless loop of levels until memory ran out, when a trainer fault gave a NaN probability).
            repeat {
                if labels[order[index]] == 1 { truePositives += 1 } else { falsePositives += 1 }
                index += 1
            } while index < order.count && scores[order[index]] == score
            levels.append(Level(score: score, truePositives: truePositives, falsePositives: falsePositives))
        }
        self.levels = levels
        positives = truePositives
        negatives = falsePositives
    }

    var auc: Double {
        guard positives > 0, negatives > 0 else { return .nan }
        // Trapezoids of the ROC curve: a tie level contributes half its positive-negative pairs.
        var area = 0.0
        var previousTP = 0
        var previousFP = 0
        for level in levels {
            let newPositives = Double(level.truePositives - previousTP)
            let newNegatives = Double(level.falsePositives - previousFP)
            area += newNegatives * (Double(previousTP) + newPositives / 2)
            previousTP = level.truePositives
            previousFP = level.falsePositives
        }
        return area / (Double(positives) * Double(negatives))
    }

    var averagePrecision: Double {
        guard positives > 0 else { return .nan }
        var total = 0.0
        var previousRecall = 0.0
        for level in levels {
            let recall = Double(level.truePositives) / Double(positives)
            let precision = Double(level.truePositives) / Double(level.truePositives + level.falsePositives)
            total += (recall - previousRecall) * precision
            previousRecall = recall
        }
        return total
    }

    func precision(_ level: Level) -> Double {
        Double(level.truePositives) / Double(max(1, level.truePositives + level.falsePositives))
    }

    func recall(_ level: Level) -> Double { Double(level.truePositives) / Double(max(1, positives)) }
}
