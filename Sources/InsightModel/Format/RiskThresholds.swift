/// Probability cut-offs that turn a score into an outcome: `high` if p >= high, else `medium` if p >= medium,
/// else below `medium` (reported by the domain layer). Validation requires 0 < medium <= high < 1.
public struct RiskThresholds: Codable, Sendable, Hashable {
    public var medium: Double
    public var high: Double

    public init(medium: Double, high: Double) {
        self.medium = medium
        self.high = high
    }
}
