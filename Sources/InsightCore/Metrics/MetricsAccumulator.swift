/// Folds the store's aggregates into groups and produces the published report. Memory grows with the number of
/// groups and days, never with the number of evaluations behind them.
public struct MetricsAccumulator: Sendable {
    public let query: MetricsQuery
    /// Groups by a compact integer code of their dimension values (hashing strings per row costs more than all the
    /// counting); `keys` and `tallies` share indexes.
    private var groupIndexes: [Int: Int] = [:]
    private var keys: [GroupKey] = []
    private var tallies: [GroupTally] = []
    private var versionCodes: [String: Int] = [:]
    private var lastVersion: (text: String, code: Int)?

    public init(query: MetricsQuery) { self.query = query }

    public mutating func add(_ aggregate: MetricsAggregate) {
        guard aggregate.evaluations != 0 || aggregate.confirmedFraud != 0 || aggregate.confirmedLegitimate != 0,
              covers(aggregate.key) else { return }
        let index = groupIndex(aggregate.key)
        tallies[index].add(aggregate)
    }

    public mutating func add(_ latency: LatencyAggregate) {
        guard latency.labels != 0, covers(latency.key) else { return }
        let index = groupIndex(latency.key)
        tallies[index].latency.add(days: latency.latencyDays, count: latency.labels)
    }

    private func covers(_ key: MetricsAggregate.Key) -> Bool {
        query.days.contains(key.day) && query.environments.contains(key.environment)
    }

    private mutating func groupIndex(_ key: MetricsAggregate.Key) -> Int {
        var code = 0
        for dimension in query.groupBy {
            switch dimension {
            case .category: code = code &* 8 &+ (OperationCategory.allCases.firstIndex(of: key.category) ?? 7)
            case .outcome: code = code &* 4 &+ key.outcome.ordinal
            case .consumption: code = code &* 8 &+ key.consumption.ordinal
            case .environment: code = code &* 2 &+ (key.environment == .production ? 1 : 0)
            case .modelVersion: code = code &* 1_048_576 &+ versionCode(key.modelVersion)
            }
        }
        if let index = groupIndexes[code] { return index }
        keys.append(GroupKey(key, dimensions: query.groupBy))
        tallies.append(GroupTally())
        groupIndexes[code] = tallies.count - 1
        return tallies.count - 1
    }

    private mutating func versionCode(_ version: String) -> Int {
        if let lastVersion, lastVersion.text == version { return lastVersion.code }
        let code = versionCodes[version] ?? versionCodes.count
        versionCodes[version] = code
        lastVersion = (version, code)
        return code
    }

    public func report(policy: MetricsPolicy, now: Int64) -> LabelMetricsReport {
        let today = now.floorDividedWithRemainder(86_400_000).0
        let order = tallies.indices.filter { tallies[$0].total.evaluations > 0 }
            .sorted { Self.precedes(self.keys[$0], self.keys[$1], query.groupBy) }
        let sortedKeys = order.map { self.keys[$0] }
        var disclosures: [GroupTally.Disclosure] = order.map { index in
            let dimensions = zip(query.groupBy, self.keys[index].values).map { GroupMetrics.Dimension(dimension: $0, value: $1) }
            return tallies[index].disclosed(dimensions: dimensions, groupBy: query.groupBy, policy: policy, today: today)
        }
        if let outcomePosition = query.groupBy.firstIndex(of: .outcome) {
            fillRecallAcrossOutcomes(&disclosures, keys: sortedKeys, outcomePosition: outcomePosition)
        }
        return LabelMetricsReport(query: query, policy: policy, generatedAt: now, groups: disclosures.map(\.metrics))
    }

    /// Grouped by outcome, recall compares a group with its siblings (same other dimensions, other outcomes); it is
    /// published only when every sibling's confirmed fraud is.
    private func fillRecallAcrossOutcomes(_ disclosures: inout [GroupTally.Disclosure], keys: [GroupKey], outcomePosition: Int) {
        var populations: [[String]: [Int]] = [:]
        for (index, key) in keys.enumerated() {
            var population = key.values
            population.remove(at: outcomePosition)
            populations[population, default: []].append(index)
        }
        for members in populations.values {
            let published = members.allSatisfy { disclosures[$0].confirmedFraudPublished }
            var fraud: [RiskLevel: Int] = [:]
            for index in members {
                if let level = RiskLevel(rawValue: keys[index].values[outcomePosition]) { fraud[level] = disclosures[index].confirmedFraud }
            }
            let total = fraud.values.reduce(0, +)
            for index in members {
                if published {
                    guard total > 0 else { continue }
                    disclosures[index].metrics.recallMediumOrAbove = Double((fraud[.medium] ?? 0) + (fraud[.high] ?? 0)) / Double(total)
                    disclosures[index].metrics.recallHigh = Double(fraud[.high] ?? 0) / Double(total)
                } else {
                    disclosures[index].metrics.suppressed += ["/recall/mediumOrAbove", "/recall/high"]
                }
            }
        }
    }

    /// Groups in the vocabulary's own order (categories and outcomes as declared), model versions as text.
    private static func precedes(_ lhs: GroupKey, _ rhs: GroupKey, _ dimensions: [MetricsDimension]) -> Bool {
        for (index, dimension) in dimensions.enumerated() where lhs.values[index] != rhs.values[index] {
            let left = rank(lhs.values[index], dimension)
            let right = rank(rhs.values[index], dimension)
            return left != right ? left < right : lhs.values[index] < rhs.values[index]
        }
        return false
    }

    private static func rank(_ value: String, _ dimension: MetricsDimension) -> Int {
        switch dimension {
        case .category: OperationCategory.allCases.firstIndex { $0.rawValue == value } ?? 99
        case .outcome: RiskLevel.allCases.firstIndex { $0.rawValue == value } ?? 99
        case .consumption: ConsumptionBucket.allCases.firstIndex { $0.rawValue == value } ?? 99
        case .environment: DeploymentEnvironment.allCases.firstIndex { $0.rawValue == value } ?? 99
        case .modelVersion: 0
        }
    }
}
