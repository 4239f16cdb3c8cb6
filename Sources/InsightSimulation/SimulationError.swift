import InsightCore

/// Why a simulator cannot start.
public enum SimulationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The positive rate must lie in 0...1.
    case invalidPositiveRate
    /// The catalogue declares a feature the simulator has no story for.
    case unsupportedFeature(name: String, category: OperationCategory)

    public var description: String {
        switch self {
        case .invalidPositiveRate: "the positive rate must be between 0 and 1"
        case .unsupportedFeature(let name, let category):
            "the simulator cannot produce feature '\(name)' of category \(category.rawValue)"
        }
    }
}
