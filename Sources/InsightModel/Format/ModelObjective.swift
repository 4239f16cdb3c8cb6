/// What the summed margin means. Only binary classification with the logistic link is supported:
/// probability = 1 / (1 + exp(-margin)).
public enum ModelObjective: String, Codable, Sendable, Hashable {
    case binaryLogistic = "binary:logistic"
}
