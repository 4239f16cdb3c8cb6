/// The published figures of one group. A count that is nil was withheld by small-cell suppression (its path is in
/// `suppressed`) or, for a ratio, has no denominator.
public struct GroupMetrics: Sendable, Equatable {
    public struct Dimension: Sendable, Equatable {
        public var dimension: MetricsDimension
        public var value: String
    }

    public struct ConsumptionCount: Sendable, Equatable {
        public var bucket: ConsumptionBucket
        public var evaluations: Int?
    }

    public struct OutcomeFigures: Sendable, Equatable {
        public var outcome: RiskLevel
        public var evaluations: Int?
        public var confirmedFraud: Int?
        public var confirmedLegitimate: Int?
        /// Confirmed fraud among the labelled insights with this outcome (precision for `medium` and `high`).
        public var fraudRate: Double?
    }

    public struct LatencyFigures: Sendable, Equatable {
        public var medianDays: Int?
        public var p90Days: Int?
        public var histogram: [(bucket: LatencyBucket, labels: Int?)]

        public static func == (lhs: LatencyFigures, rhs: LatencyFigures) -> Bool {
            lhs.medianDays == rhs.medianDays && lhs.p90Days == rhs.p90Days
                && lhs.histogram.map(\.bucket) == rhs.histogram.map(\.bucket) && lhs.histogram.map(\.labels) == rhs.histogram.map(\.labels)
        }
    }

    public struct Day: Sendable, Equatable {
        /// Days since 1970-01-01, UTC.
        public var day: Int64
        public var mature: Bool
        public var evaluations: Int?
        public var confirmedFraud: Int?
        public var confirmedLegitimate: Int?
    }

    public var dimensions: [Dimension]
    /// False while the group's newest evaluation is younger than the maturity period: labels may still arrive.
    public var mature: Bool
    public var newestDay: Int64
    public var evaluations: Int?
    /// The six statuses and `missing`, or only the group's own bucket when grouped by consumption.
    public var consumption: [ConsumptionCount]
    public var late: Int?
    public var confirmedFraud: Int?
    public var confirmedLegitimate: Int?
    /// `unknown`, `medium`, `high`, or only the group's own outcome when grouped by outcome.
    public var outcomes: [OutcomeFigures]
    /// Confirmed fraud answered `medium` or `high`, over all confirmed fraud of the population.
    public var recallMediumOrAbove: Double?
    /// Confirmed fraud answered `high`, over all confirmed fraud of the population.
    public var recallHigh: Double?
    public var latency: LatencyFigures
    /// Days of the range with at least one evaluation in the group, oldest first.
    public var series: [Day]
    /// JSON Pointers (relative to the group) of every figure withheld by suppression.
    public var suppressed: [String]

    public func value(of dimension: MetricsDimension) -> String? {
        dimensions.first { $0.dimension == dimension }?.value
    }

    /// A group with no evaluation (every count zero, nothing to divide), for a page that shows every group, such as
    /// the report's row per outcome. `outcome` limits `outcomes` to one, as when grouped by outcome.
    public static func empty(_ dimensions: [(MetricsDimension, String)], outcome: RiskLevel? = nil, today: Int64) -> GroupMetrics {
        GroupMetrics(
            dimensions: dimensions.map { Dimension(dimension: $0.0, value: $0.1) }, mature: false, newestDay: today,
            evaluations: 0, consumption: ConsumptionBucket.allCases.map { ConsumptionCount(bucket: $0, evaluations: 0) },
            late: 0, confirmedFraud: 0, confirmedLegitimate: 0,
            outcomes: (outcome.map { [$0] } ?? RiskLevel.allCases).map {
                OutcomeFigures(outcome: $0, evaluations: 0, confirmedFraud: 0, confirmedLegitimate: 0, fraudRate: nil)
            },
            recallMediumOrAbove: nil, recallHigh: nil,
            latency: LatencyFigures(medianDays: nil, p90Days: nil, histogram: LatencyBucket.all.map { ($0, 0) }), series: [],
            suppressed: [])
    }
}

/// A whole answer: what was asked, under which policy, and the groups.
public struct LabelMetricsReport: Sendable, Equatable {
    public var query: MetricsQuery
    public var policy: MetricsPolicy
    public var generatedAt: Int64
    public var groups: [GroupMetrics]
}
