@testable import InsightTraining

/// Small deterministic data sets for tests; each story makes one behaviour of the trainer observable.
enum SyntheticData {
    /// Label = 1 iff a weighted sum of the first two features is positive: AUC near 1 is attainable.
    static func separable(rows: Int, seed: UInt64, features: Int = 4) -> Dataset {
        make(rows: rows, seed: seed, features: features) { values, random in
            let noise = Float(0.05 * (random.nextUnit() - 0.5))
            let score: Float = 2 * values[0] - values[1] + noise
            return score > 0.4 ? 1 : 0
        }
    }

    /// Feature 0 is missing for 20% of rows, and those rows are mostly positive, as are rows with a small value.
    static func informativeMissing(rows: Int, seed: UInt64) -> Dataset {
        var random = SplitMix64(seed: seed)
        var values: [Float] = []
        var labels: [UInt8] = []
        for _ in 0..<rows {
            let x0 = Float(random.nextUnit())
            let x1 = Float(random.nextUnit())
            let missing = random.nextUnit() < 0.2
            let positive = missing ? random.nextUnit() < 0.9 : (x0 < 0.2 ? random.nextUnit() < 0.9 : random.nextUnit() < 0.05)
            values.append(missing ? .nan : x0)
            values.append(x1)
            labels.append(positive ? 1 : 0)
        }
        return try! Dataset(featureNames: ["x0", "x1"], values: values, labels: labels)
    }

    /// Labels independent of the features: validation loss stops improving almost at once.
    static func noise(rows: Int, seed: UInt64) -> Dataset {
        make(rows: rows, seed: seed, features: 3) { _, random in random.nextUnit() < 0.3 ? 1 : 0 }
    }

    static func make(
        rows: Int, seed: UInt64, features: Int, label: ([Float], inout SplitMix64) -> UInt8
    ) -> Dataset {
        var random = SplitMix64(seed: seed)
        var values: [Float] = []
        var labels: [UInt8] = []
        var row = [Float](repeating: 0, count: features)
        for _ in 0..<rows {
            for feature in 0..<features { row[feature] = Float(random.nextUnit()) }
            labels.append(label(row, &random))
            // A few missing cells in the uninformative columns, so missing bins are exercised everywhere.
            for feature in 2..<max(features, 2) where random.nextUnit() < 0.05 { row[feature] = .nan }
            values.append(contentsOf: row)
        }
        return try! Dataset(featureNames: (0..<features).map { "f\($0)" }, values: values, labels: labels)
    }

    static func smallParameters() -> TrainingParameters {
        var parameters = TrainingParameters()
        parameters.trees = 20
        parameters.maxDepth = 3
        parameters.learningRate = 0.3
        parameters.earlyStoppingRounds = 0
        return parameters
    }
}
