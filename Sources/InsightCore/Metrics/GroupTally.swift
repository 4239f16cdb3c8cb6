/// The exact, unsuppressed counts of one group while aggregates are read.
struct GroupTally: Sendable {
    struct Counts: Sendable, Equatable {
        var evaluations = 0
        var confirmedFraud = 0
        var confirmedLegitimate = 0

        mutating func add(_ aggregate: MetricsAggregate) {
            evaluations += aggregate.evaluations
            confirmedFraud += aggregate.confirmedFraud
            confirmedLegitimate += aggregate.confirmedLegitimate
        }
    }

    var total = Counts()
    var consumption: [ConsumptionBucket: Int] = [:]
    var late = 0
    var outcomes: [RiskLevel: Counts] = [:]
    var days: [Int64: Counts] = [:]
    var latency = LatencyDistribution()

    mutating func add(_ aggregate: MetricsAggregate) {
        total.add(aggregate)
        consumption[aggregate.key.consumption, default: 0] += aggregate.evaluations
        late += aggregate.late
        outcomes[aggregate.key.outcome, default: Counts()].add(aggregate)
        days[aggregate.key.day, default: Counts()].add(aggregate)
    }
}

/// A group's identity: its value for each grouping dimension, in `groupBy` order.
public struct GroupKey: Sendable, Hashable {
    public var values: [String]

    public init(_ values: [String]) { self.values = values }

    init(_ key: MetricsAggregate.Key, dimensions: [MetricsDimension]) {
        values = dimensions.map { dimension in
            switch dimension {
            case .category: key.category.rawValue
            case .modelVersion: key.modelVersion
            case .outcome: key.outcome.rawValue
            case .consumption: key.consumption.rawValue
            case .environment: key.environment.rawValue
            }
        }
    }
}
