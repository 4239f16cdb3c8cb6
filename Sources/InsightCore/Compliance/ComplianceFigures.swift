/// One key's consumption-reporting record over the trailing window, as `GET /v1/compliance` shows it.
public struct ComplianceFigures: Sendable, Equatable {
    public enum Standing: String, Sendable {
        /// Too few evaluations past their deadline to judge, or a missing share at or below the threshold.
        case compliant
        /// Missing share above the threshold: the key's rate is cut.
        case rateReduced
        /// Non-compliant for the whole suspension period: the key is suspended (403 `access-revoked`).
        case suspended
    }

    /// Evaluations whose reporting deadline fell inside the window.
    public var judged: Int
    public var reportedOnTime: Int
    public var reportedLate: Int
    /// Judged evaluations without a report by their deadline (late reports included).
    public var missing: Int { judged - reportedOnTime }
    public var missingShare: Double { judged == 0 ? 0 : Double(missing) / Double(judged) }
    public var standing: Standing
    /// Since when the key has been non-compliant without a break (milliseconds), if it is.
    public var nonCompliantSince: Int64?
    /// When a key that stays non-compliant will be suspended (milliseconds), if suspension is on.
    public var suspendsAt: Int64?

    public init(judged: Int, reportedOnTime: Int, reportedLate: Int, standing: Standing, nonCompliantSince: Int64?, suspendsAt: Int64?) {
        self.judged = judged
        self.reportedOnTime = reportedOnTime
        self.reportedLate = reportedLate
        self.standing = standing
        self.nonCompliantSince = nonCompliantSince
        self.suspendsAt = suspendsAt
    }
}
