/// Labelled rows for training or validation: float32 feature values, row-major, NaN for a missing value.
///
/// Feature values are sensitive: this type has no `description` that prints them, and errors about it name rows
/// and columns, never values.
public struct Dataset: Sendable {
    public let featureNames: [String]
    public let rowCount: Int
    /// `values[row * featureCount + feature]`; NaN means missing.
    public let values: [Float]
    /// 0 or 1 per row.
    public let labels: [UInt8]

    public var featureCount: Int { featureNames.count }

    public var positiveCount: Int { labels.reduce(0) { $0 + Int($1) } }

    public init(featureNames: [String], values: [Float], labels: [UInt8]) throws(DatasetError) {
        guard !featureNames.isEmpty else { throw .noFeatures }
        guard Set(featureNames).count == featureNames.count else { throw .duplicateFeatureName }
        guard values.count == labels.count * featureNames.count else { throw .shapeMismatch }
        guard labels.allSatisfy({ $0 <= 1 }) else { throw .shapeMismatch }
        guard values.allSatisfy({ $0.isFinite || $0.isNaN }) else { throw .shapeMismatch }
        self.featureNames = featureNames
        self.rowCount = labels.count
        self.values = values
        self.labels = labels
    }

    /// Internal: for loaders that already checked every value.
    init(checkedFeatureNames featureNames: [String], values: [Float], labels: [UInt8]) {
        self.featureNames = featureNames
        self.rowCount = labels.count
        self.values = values
        self.labels = labels
    }
}

extension Dataset: CustomStringConvertible {
    /// Shape only: feature values must never reach a log.
    public var description: String { "Dataset(\(rowCount) rows, \(featureCount) features)" }
}
