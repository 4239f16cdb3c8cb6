import InsightModel

/// A loaded model bound to its category's feature layout: the index map from catalogue order to the model's own
/// feature order is computed once per load, not per request.
final class CatalogueBoundModel: ScoringModel {
    let loaded: LoadedModel
    /// For each model feature, its index in the category's `FeatureVector`.
    private let vectorIndices: [Int]

    init?(loaded: LoadedModel, catalogue: CategoryCatalogue) {
        guard let indices = try? catalogue.indices(forModelFeatures: loaded.scorer.featureNames) else { return nil }
        self.loaded = loaded
        self.vectorIndices = indices
    }

    var version: String { loaded.version }
    var mediumThreshold: Double { loaded.scorer.thresholds.medium }
    var highThreshold: Double { loaded.scorer.thresholds.high }
    var isCandidate: Bool { loaded.status == .candidate }

    func probability(for features: FeatureVector) throws -> Double {
        withRow(features) { row in loaded.scorer.score(row).probability }
    }

    func reasonFeatures(for features: FeatureVector, limit: Int) -> [String] {
        withRow(features) { row in loaded.scorer.contributions(for: row).topIncreasing(limit) }
    }

    private func withRow<T>(_ features: FeatureVector, _ body: ([Double]) -> T) -> T {
        var row = [Double](repeating: .nan, count: vectorIndices.count)
        for (position, index) in vectorIndices.enumerated() { row[position] = features[index] }
        return body(row)
    }
}
