/// The arithmetic a model was trained and exported with. Reproducing a source library bit for bit depends on
/// all three: the precision inputs and thresholds are compared in, the comparison, and the precision of the sum.
public struct SplitSemantics: Codable, Sendable, Hashable {
    /// Inputs are converted to this precision before comparing; leaf values are summed in it.
    public var precision: NumericPrecision
    /// Which way a value equal to the threshold goes: `lessThan` sends it right, `lessThanOrEqual` left.
    public var comparison: SplitComparison

    public init(precision: NumericPrecision, comparison: SplitComparison) {
        self.precision = precision
        self.comparison = comparison
    }

    /// XGBoost: float32 inputs and thresholds, left iff `x < t`, leaf values summed in float32 in tree order.
    public static let xgboost = SplitSemantics(precision: .float32, comparison: .lessThan)
    /// LightGBM: double inputs and thresholds, left iff `x <= t`, leaf values summed in double.
    public static let lightGBM = SplitSemantics(precision: .float64, comparison: .lessThanOrEqual)
}

public enum NumericPrecision: String, Codable, Sendable, Hashable {
    case float32
    case float64
}

public enum SplitComparison: String, Codable, Sendable, Hashable {
    /// Left iff `x < threshold` (XGBoost).
    case lessThan
    /// Left iff `x <= threshold` (LightGBM).
    case lessThanOrEqual
}
