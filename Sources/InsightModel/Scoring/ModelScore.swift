/// The model's answer for one row.
public struct ModelScore: Sendable, Hashable {
    /// Sum of the base margin and the leaves, divided by `sumDivisor` when the model has one (a float32 value for
    /// float32 models).
    public var margin: Double
    public var probability: Double
    public var level: RiskLevel
}

/// Where a probability falls against the model's thresholds.
public enum RiskLevel: String, Sendable, Hashable, Codable {
    case belowMedium
    case medium
    case high
}

extension RiskThresholds {
    public func level(for probability: Double) -> RiskLevel {
        if probability >= high { return .high }
        if probability >= medium { return .medium }
        return .belowMedium
    }
}
