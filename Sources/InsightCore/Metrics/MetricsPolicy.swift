/// The disclosure and maturity rules applied to every metrics answer.
public struct MetricsPolicy: Sendable, Equatable {
    public static let defaultSuppressionK = 10
    public static let defaultMaturityDays = 30

    /// Counts below this are withheld (reported as null); 0 turns suppression off.
    public var suppressionK: Int
    /// Evaluations younger than this many days may still collect labels: their groups and days are immature.
    public var maturityDays: Int

    public init(suppressionK: Int = Self.defaultSuppressionK, maturityDays: Int = Self.defaultMaturityDays) {
        self.suppressionK = suppressionK
        self.maturityDays = maturityDays
    }
}
