/// Why training could not produce a model.
public enum TrainingError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidParameter(name: String, rule: String)
    case featuresDiffer
    /// Log loss and thresholds need both classes.
    case singleClass(set: String)
    case emptyData(set: String)
    /// Every tree kept is a single leaf: no split on any feature reduced the loss enough.
    case noSplits

    public var description: String {
        switch self {
        case .invalidParameter(let name, let rule): "parameter \(name) must be \(rule)"
        case .featuresDiffer: "training and validation data have different feature columns"
        case .singleClass(let set): "the \(set) data must contain both labels 0 and 1"
        case .emptyData(let set): "the \(set) data has no rows"
        case .noSplits:
            "no feature separates the labels: every tree is a single leaf, so every row would get the same score"
        }
    }
}
