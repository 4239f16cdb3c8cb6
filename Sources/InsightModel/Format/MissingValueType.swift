/// Which input values take a split node's default direction instead of the comparison (LightGBM's
/// missing types; XGBoost nodes are all `nan`).
public enum MissingValueType: String, Codable, Sendable, Hashable {
    /// NaN is read as 0.0 and compared like any value; the default direction is unused.
    case none
    /// NaN, and any value with magnitude at most 1e-35 (as float32), take the default direction.
    case zero
    /// NaN takes the default direction.
    case nan
}
