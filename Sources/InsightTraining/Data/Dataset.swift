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
    /// Where the rows came from (a file's path), for error messages.
    public let source: String

    public var featureCount: Int { featureNames.count }

    public var positiveCount: Int { labels.reduce(0) { $0 + Int($1) } }

    public init(featureNames: [String], values: [Float], labels: [UInt8], source: String = "<memory>") throws(DatasetError) {
        try Self.checkFeatureNames(featureNames, source: source)
        guard values.count == labels.count * featureNames.count else { throw .shapeMismatch }
        guard labels.allSatisfy({ $0 <= 1 }) else { throw .shapeMismatch }
        guard values.allSatisfy({ $0.isFinite || $0.isNaN }) else { throw .shapeMismatch }
        self.init(checkedFeatureNames: featureNames, values: values, labels: labels, source: source)
    }

    /// Internal: for loaders that already checked every name and value.
    init(checkedFeatureNames featureNames: [String], values: [Float], labels: [UInt8], source: String) {
        self.featureNames = featureNames
        self.rowCount = labels.count
        self.values = values
        self.labels = labels
        self.source = source
    }
}

extension Dataset: CustomStringConvertible {
    /// Shape only: feature values must never reach a log.
    public var description: String { "Dataset(\(rowCount) rows, \(featureCount) features)" }
}
