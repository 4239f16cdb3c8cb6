/// The value of an `isLikelyBeingCoached` insight. Ordered: rules may raise a level, never lower it.
/// `unknown` means no evidence of risk, which is not the same as low risk.
public enum RiskLevel: String, Sendable, Comparable, CaseIterable {
    case unknown
    case medium
    case high

    private var rank: Int {
        switch self {
        case .unknown: 0
        case .medium: 1
        case .high: 2
        }
    }

    public static func < (lhs: RiskLevel, rhs: RiskLevel) -> Bool { lhs.rank < rhs.rank }
}
