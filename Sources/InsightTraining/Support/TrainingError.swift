/// Why training could not produce a model.
public enum TrainingError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidParameter(name: String, rule: String)
    case featuresDiffer
    /// Log loss and thresholds need both classes. `source` is the data's file, `rows` its row count and `label`
    /// the one label they all have.
    case singleClass(set: String, source: String, rows: Int, label: Int)
    case emptyData(set: String)
    /// Every tree kept is a single leaf: no split on any feature reduced the loss enough. `rows` is the training
    /// data's row count: with few rows, the parameters rather than the data may be what rules every split out.
    case noSplits(rows: Int)
    /// The trees split, but every validation row still gets the same probability (leaves too small to move the
    /// float32 margin, or splits that no validation row falls on either side of): thresholds chosen on it would
    /// flag every row. `rows` is the validation data's row count.
    case constantScores(rows: Int)

    public var description: String {
        switch self {
        case .invalidParameter(let name, let rule): "parameter \(name) must be \(rule)"
        case .featuresDiffer: "training and validation data have different feature columns"
        case .singleClass(let set, let source, let rows, let label):
            "\(source): the \(set) data must contain both labels 0 and 1, but \(rows == 1 ? "its one row is" : "all \(rows) rows are") labelled \(label)"
        case .emptyData(let set): "the \(set) data has no rows"
        case .noSplits(let rows):
            "no feature separates the labels: every tree is a single leaf, so every row would get the same score "
                + "(or the parameters allow no split on these \(rows) training rows: a small subsample, few bins, a "
                + "large minimum child weight, or a minimum split gain or lambda so large that no split gains enough)"
        case .constantScores(let rows):
            "every one of the \(rows) validation rows gets the same score, so `high` would flag every row: the trees' "
                + "leaves are too small to change it (a learning rate too small?) or no validation row is told apart by "
                + "their splits"
        }
    }
}
