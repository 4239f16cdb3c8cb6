/// The exact, unsuppressed counts of one group while aggregates are read. Consumption buckets and outcomes are
/// indexed by their position in `allCases`.
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
    var consumption = Array(repeating: 0, count: ConsumptionBucket.allCases.count)
    var late = 0
    var outcomes = Array(repeating: Counts(), count: RiskLevel.allCases.count)
    var days: [Int64: Counts] = [:]
    var latency = LatencyDistribution()

    mutating func add(_ aggregate: MetricsAggregate) {
        total.add(aggregate)
        consumption[aggregate.key.consumption.ordinal] += aggregate.evaluations
        late += aggregate.late
        outcomes[aggregate.key.outcome.ordinal].add(aggregate)
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

extension ConsumptionBucket {
    var ordinal: Int {
        switch self {
        case .usedReducedFriction: 0
        case .usedUnchangedFriction: 1
        case .usedIncreasedFriction: 2
        case .notUsedNotNeeded: 3
        case .notUsedError: 4
        case .usedEvaluationOnly: 5
        case .missing: 6
        }
    }
}

extension RiskLevel {
    var ordinal: Int {
        switch self {
        case .unknown: 0
        case .medium: 1
        case .high: 2
        }
    }
}
