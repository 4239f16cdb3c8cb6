@testable import InsightModel

/// A seeded SplitMix64, so a failing property case can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random models and rows built from a small pool of awkward values, so that inputs often equal thresholds
/// exactly and hit ±0, subnormals, the LightGBM zero band, infinities and NaN.
struct RandomModels {
    var generator: SplitMix64

    static let pool: [Double] = [
        0, -0.0, 1, -1, 0.5, -0.5, 1.5, 3, -3, 1e-36, -1e-36, Double(Float(1e-35)), -Double(Float(1e-35)),
        Double(Float.leastNonzeroMagnitude), -Double(Float.leastNonzeroMagnitude), Double.leastNonzeroMagnitude,
        Double(Float.greatestFiniteMagnitude), 0.1, 0.2, 1e300, -1e300, 2.5, 7,
    ]

    mutating func poolValue() -> Double {
        Self.pool[Int.random(in: 0..<Self.pool.count, using: &generator)]
    }

    mutating func row(features: Int) -> [Double] {
        (0..<features).map { _ in
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: return .nan
            case 1: return Bool.random(using: &generator) ? .infinity : -.infinity
            case 2: return Double.random(in: -4...4, using: &generator)
            default: return poolValue()
            }
        }
    }

    /// `dividingTheSum`: the margin is the sum divided by a random `sumDivisor` (drawn last, so the trees are the
    /// ones the same seed gives without it).
    mutating func model(float32: Bool, maxDepth: Int, dividingTheSum: Bool = false) -> ModelDocument {
        let features = Int.random(in: 1...6, using: &generator)
        let treeCount = Int.random(in: 1...40, using: &generator)
        let trees = (0..<treeCount).map { _ in tree(float32: float32, features: features, maxDepth: maxDepth) }
        let base = float32 ? Double(Float(Double.random(in: -2...2, using: &generator))) : Double.random(in: -2...2, using: &generator)
        var document = ModelDocument(
            featureNames: (0..<features).map { "x\($0)" }, baseMargin: base,
            semantics: float32 ? .xgboost : .lightGBM, thresholds: RiskThresholds(medium: 0.2, high: 0.6),
            metadata: ModelMetadata(
                insightType: "isLikelyBeingCoached", category: "payment", version: "1", createdAt: "2026-01-01T00:00:00Z",
                training: TrainingProvenance(source: "test", tool: "random")),
            trees: trees)
        if dividingTheSum { document.sumDivisor = Int.random(in: 1...(3 * treeCount), using: &generator) }
        return document
    }

    mutating func tree(float32: Bool, features: Int, maxDepth: Int) -> ModelTree {
        var tree = ModelTree(
            leftChildren: [], rightChildren: [], splitFeatures: [], thresholds: [], defaultLeft: [],
            missingTypes: float32 ? nil : [], leafValues: [], covers: [])
        func add(depth: Int) -> Int {
            let index = tree.leftChildren.count
            tree.leftChildren.append(-1)
            tree.rightChildren.append(-1)
            tree.splitFeatures.append(0)
            tree.thresholds.append(0)
            tree.defaultLeft.append(false)
            tree.missingTypes?.append(.nan)
            tree.leafValues.append(0)
            tree.covers?.append(0)
            let split = depth < maxDepth && (depth == 0 || Int.random(in: 0..<10, using: &generator) < 7)
            if split {
                tree.splitFeatures[index] = Int.random(in: 0..<features, using: &generator)
                var threshold = poolValue()
                // XGBoost writes ±inf thresholds where values reach float32's limit, LightGBM +inf for its last bin.
                if Int.random(in: 0..<12, using: &generator) == 0 {
                    threshold = Bool.random(using: &generator) ? .infinity : -.infinity
                }
                if threshold == -1e300 || threshold == 1e300 { threshold = float32 ? 3 : threshold }
                tree.thresholds[index] = float32 ? Double(Float(threshold)) : threshold
                tree.defaultLeft[index] = Bool.random(using: &generator)
                if !float32 {
                    tree.missingTypes![index] = [MissingValueType.none, .zero, .nan][Int.random(in: 0..<3, using: &generator)]
                }
                let left = add(depth: depth + 1)
                let right = add(depth: depth + 1)
                tree.leftChildren[index] = left
                tree.rightChildren[index] = right
                tree.covers![index] = tree.covers![left] + tree.covers![right]
            } else {
                let value = Double.random(in: -1...1, using: &generator)
                tree.leafValues[index] = float32 ? Double(Float(value)) : value
                tree.covers![index] = Double(Int.random(in: 1...100, using: &generator))
            }
            return index
        }
        _ = add(depth: 0)
        return tree
    }
}
