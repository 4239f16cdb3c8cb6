import Testing
@testable import InsightCore

struct FakeMetricsSource: MetricsSource {
    var aggregates: [MetricsAggregate] = []
    var latencies: [LatencyAggregate] = []

    func forEachAggregate(_ query: MetricsQuery, aggregate: (MetricsAggregate) -> Void, latency: (LatencyAggregate) -> Void) throws {
        aggregates.forEach(aggregate)
        latencies.forEach(latency)
    }
}

@Suite struct LabelMetricsTests {
    let tenant = TenantID("acme")!
    let today: Int64 = 20_000
    var now: Int64 { today * 86_400_000 + 3_600_000 }

    func key(
        day: Int64 = 19_900, category: OperationCategory = .payment, version: String = "2026.11.1", outcome: RiskLevel,
        consumption: ConsumptionBucket = .usedIncreasedFriction, environment: DeploymentEnvironment = .production
    ) -> MetricsAggregate.Key {
        .init(environment: environment, day: day, category: category, modelVersion: version, outcome: outcome, consumption: consumption)
    }

    func query(_ groupBy: [MetricsDimension] = [], days: ClosedRange<Int64> = 19_000...20_000) -> MetricsQuery {
        MetricsQuery(tenant: tenant, days: days, groupBy: groupBy, environments: [.production])
    }

    func report(_ source: FakeMetricsSource, _ groupBy: [MetricsDimension] = [], k: Int = 0, maturity: Int = 30) throws -> LabelMetricsReport {
        try LabelMetrics(source: source, policy: MetricsPolicy(suppressionK: k, maturityDays: maturity)).report(query(groupBy), now: now)
    }

    /// 1000 evaluations: 800 unknown, 150 medium, 50 high; labels: high 30 fraud / 10 legitimate, medium 20 / 40,
    /// unknown 10 / 90; so precision at high is 0.75 and recall at medium or above (30 + 20) / 60.
    var source: FakeMetricsSource {
        FakeMetricsSource(
            aggregates: [
                .init(key: key(day: 19_900, outcome: .unknown), evaluations: 500, late: 12, confirmedFraud: 6, confirmedLegitimate: 60),
                .init(key: key(day: 19_901, outcome: .unknown, consumption: .missing), evaluations: 300, confirmedFraud: 4, confirmedLegitimate: 30),
                .init(key: key(day: 19_900, outcome: .medium, consumption: .usedReducedFriction), evaluations: 150, late: 3, confirmedFraud: 20, confirmedLegitimate: 40),
                .init(key: key(day: 19_990, outcome: .high), evaluations: 50, confirmedFraud: 30, confirmedLegitimate: 10),
                // Outside the query: another environment and a day out of range.
                .init(key: key(outcome: .high, environment: .sandbox), evaluations: 999, confirmedFraud: 999),
                .init(key: key(day: 18_000, outcome: .high), evaluations: 999, confirmedFraud: 999),
            ],
            latencies: [
                .init(key: key(day: 19_900, outcome: .unknown), latencyDays: 2, labels: 100),
                .init(key: key(day: 19_900, outcome: .medium, consumption: .usedReducedFriction), latencyDays: 10, labels: 60),
                .init(key: key(day: 19_990, outcome: .high), latencyDays: 40, labels: 40),
            ])
    }

    @Test func computesExactFiguresWithoutSuppression() throws {
        let group = try #require(try report(source).groups.first)
        #expect(group.evaluations == 1000)
        #expect(group.consumption.map(\.evaluations) == [150, 0, 550, 0, 0, 0, 300])
        #expect(group.late == 15)
        #expect(group.confirmedFraud == 60)
        #expect(group.confirmedLegitimate == 140)
        #expect(group.outcomes.map(\.outcome) == [.unknown, .medium, .high])
        #expect(group.outcomes.map(\.evaluations) == [800, 150, 50])
        let rates: [Double?] = [0.1, 20.0 / 60, 0.75]
        #expect(group.outcomes.map(\.fraudRate) == rates)
        #expect(group.recallMediumOrAbove == 50.0 / 60)
        #expect(group.recallHigh == 30.0 / 60)
        // 200 latencies: 100 at 2 days, 60 at 10, 40 at 40: median (rank 100) 2 days, p90 (rank 180) 40 days.
        #expect(group.latency.medianDays == 2)
        #expect(group.latency.p90Days == 40)
        #expect(group.latency.histogram.map(\.labels) == [0, 0, 100, 0, 60, 0, 40, 0, 0, 0])
        #expect(group.series.map(\.day) == [19_900, 19_901, 19_990])
        #expect(group.series.map(\.evaluations) == [650, 300, 50])
        #expect(group.series.map(\.confirmedFraud) == [26, 4, 30])
        #expect(group.suppressed.isEmpty)
    }

    @Test func flagsGroupsAndDaysYoungerThanTheMaturityPeriod() throws {
        let group = try #require(try report(source, maturity: 30).groups.first)
        #expect(!group.mature, "the newest evaluation (day 19990) is 10 days old")
        #expect(group.series.map(\.mature) == [true, true, false])
        #expect(try report(source, maturity: 10).groups.first?.mature == true)
    }

    @Test func groupsByModelVersionAndCategory() throws {
        var source = source
        source.aggregates.append(.init(key: key(category: .account, version: "2026.09.1", outcome: .high), evaluations: 20, confirmedFraud: 5))
        let groups = try report(source, [.category, .modelVersion]).groups
        #expect(groups.map { $0.dimensions.map(\.value) } == [["payment", "2026.11.1"], ["account", "2026.09.1"]])
        #expect(groups.map(\.evaluations) == [1000, 20])
        #expect(groups[1].recallHigh == 1.0)
    }

    @Test func groupedByOutcomeRecallComparesSiblingGroups() throws {
        let groups = try report(source, [.outcome]).groups
        #expect(groups.map { $0.value(of: .outcome) } == ["unknown", "medium", "high"])
        #expect(groups.map(\.confirmedFraud) == [10, 20, 30])
        #expect(groups.map { $0.outcomes.map(\.outcome) } == [[.unknown], [.medium], [.high]])
        #expect(groups[2].outcomes[0].fraudRate == 0.75)
        for group in groups {
            #expect(group.recallMediumOrAbove == 50.0 / 60)
            #expect(group.recallHigh == 0.5)
        }
    }

    @Test func groupedByConsumptionTheMixIsTheGroupItself() throws {
        let groups = try report(source, [.consumption]).groups
        #expect(groups.map { $0.value(of: .consumption) } == ["usedReducedFriction", "usedIncreasedFriction", "missing"])
        #expect(groups.map { $0.consumption.map(\.bucket.rawValue) } == [["usedReducedFriction"], ["usedIncreasedFriction"], ["missing"]])
        #expect(groups.map { $0.consumption.first?.evaluations } == [150, 550, 300])
    }

    @Test func smallCountsAreWithheldAndFlaggedWithTheirComplements() throws {
        let group = try #require(try report(source, k: 10).groups.first)
        // Zero counts are below k as well; the mix (150, 0, 550, 0, 0, 0, 300) withholds the four zeros and, as
        // they hold less than k together, the smallest published part (150) too.
        #expect(group.consumption.map(\.evaluations) == [nil, nil, 550, nil, nil, nil, 300])
        #expect(group.evaluations == 1000)
        #expect(group.suppressed.contains("/consumption/usedReducedFriction"))
        #expect(group.suppressed.contains("/consumption/notUsedError"))
        #expect(!group.suppressed.contains("/evaluations"))
        // What is withheld cannot be recomputed from the total: the published parts leave 150 for five cells.
        let published = group.consumption.compactMap(\.evaluations).reduce(0, +)
        #expect(group.evaluations! - published == 150)
        #expect(group.late == 15)
    }

    @Test func ratiosAreWithheldWhenTheirCountsAre() throws {
        var source = FakeMetricsSource()
        source.aggregates = [
            .init(key: key(outcome: .unknown), evaluations: 400, confirmedFraud: 12, confirmedLegitimate: 200),
            .init(key: key(outcome: .medium), evaluations: 60, confirmedFraud: 25, confirmedLegitimate: 30),
            .init(key: key(outcome: .high), evaluations: 30, confirmedFraud: 4, confirmedLegitimate: 20),
        ]
        source.latencies = [.init(key: key(outcome: .unknown), latencyDays: 5, labels: 291)]
        let group = try #require(try report(source, k: 10).groups.first)
        let high = try #require(group.outcomes.last)
        #expect(high.confirmedFraud == nil)
        #expect(high.fraudRate == nil)
        #expect(group.suppressed.contains("/outcomes/high/confirmedFraud"))
        #expect(group.suppressed.contains("/outcomes/high/fraudRate"))
        // Fraud by outcome is 12 / 25 / 4 of 41: the 4 takes the 12 with it as complement, so neither recall can be
        // published (each needs the 4 or the 12); medium's own rate stays published.
        #expect(group.outcomes[1].fraudRate == 25.0 / 55)
        #expect(group.outcomes[0].confirmedFraud == nil)
        #expect(group.recallHigh == nil)
        #expect(group.recallMediumOrAbove == nil)
        #expect(group.suppressed.contains("/recall/mediumOrAbove"))
        #expect(group.confirmedFraud == 41)
        // Every label is 5 days old: the histogram's nine zeros hold less than k together, so its one other bucket
        // is withheld with them, and a median of 5 days would tell that bucket held at least half of them.
        #expect(group.latency.histogram.allSatisfy { $0.labels == nil })
        #expect(group.latency.medianDays == nil)
        #expect(group.suppressed.contains("/labelLatencyDays/median"))
    }

    /// A quantile is withheld when withheld histogram buckets lie on both sides of it: an outside review found that
    /// a p90 of 90 days, with buckets `1` (4 labels) and `181+` (1) withheld, told that the first held 4 or 5.
    @Test func aQuantileThatWouldBoundWithheldBucketsIsWithheld() throws {
        var source = FakeMetricsSource()
        source.aggregates = [.init(key: key(outcome: .unknown), evaluations: 100, confirmedFraud: 20, confirmedLegitimate: 43)]
        let spread = [(0, 9), (1, 4), (2, 5), (5, 5), (10, 5), (20, 12), (40, 5), (90, 12), (100, 5), (200, 1)]
        source.latencies = spread.map { .init(key: key(outcome: .unknown), latencyDays: $0.0, labels: $0.1) }
        let group = try #require(try report(source, k: 3).groups.first)
        #expect(group.latency.histogram.map(\.labels) == [9, nil, 5, 5, 5, 12, 5, 12, 5, nil])
        #expect(group.latency.p90Days == nil)
        #expect(group.latency.medianDays == nil)
        #expect(group.suppressed.contains("/labelLatencyDays/p90"))
        #expect(group.suppressed.contains("/labelLatencyDays/median"))
        // Unsuppressed, the same figures are 20 and 90 days.
        let exact = try #require(try report(source, k: 0).groups.first)
        #expect(exact.latency.medianDays == 20 && exact.latency.p90Days == 90)

        // Withheld buckets all above the quantiles' buckets bound only their total, which the histogram's
        // published total gives anyway: both quantiles stand.
        source.latencies = [(0, 9), (1, 5), (2, 5), (5, 5), (10, 5), (20, 12), (40, 5), (90, 13), (100, 2), (200, 2)]
            .map { .init(key: key(outcome: .unknown), latencyDays: $0.0, labels: $0.1) }
        let oneSide = try #require(try report(source, k: 3).groups.first)
        #expect(oneSide.latency.histogram.map(\.labels) == [9, 5, 5, 5, 5, 12, 5, 13, nil, nil])
        #expect(oneSide.latency.medianDays == 20 && oneSide.latency.p90Days == 90)
        #expect(!oneSide.suppressed.contains("/labelLatencyDays/p90"))
    }

    @Test func latencyQuantilesUseNearestRank() {
        var distribution = LatencyDistribution()
        for (day, count) in [(0, 1), (3, 1), (7, 1), (30, 1)] { distribution.add(days: day, count: count) }
        #expect(distribution.quantile(0.5) == 3)
        #expect(distribution.quantile(0.9) == 30)
        #expect(LatencyDistribution().quantile(0.5) == nil)
        #expect(LatencyBucket.all.map(\.label) == ["0", "1", "2-3", "4-7", "8-14", "15-30", "31-60", "61-90", "91-180", "181+"])
    }

    @Test func anEmptyRangeHasNoGroups() throws {
        #expect(try report(FakeMetricsSource()).groups.isEmpty)
    }

    @Test func aFailingSourceIsAStorageError() {
        struct Failing: MetricsSource {
            struct Broken: Error {}
            func forEachAggregate(_ query: MetricsQuery, aggregate: (MetricsAggregate) -> Void, latency: (LatencyAggregate) -> Void) throws { throw Broken() }
        }
        #expect(throws: MetricsError.storageFailed) {
            try LabelMetrics(source: Failing(), policy: MetricsPolicy()).report(query(), now: now)
        }
    }
}

/// A source a server writes to between reads: each read finds one more evaluation.
final class GrowingMetricsSource: MetricsSource, @unchecked Sendable {
    private var reads = 0
    let key: MetricsAggregate.Key

    init(key: MetricsAggregate.Key) { self.key = key }

    func forEachAggregate(_ query: MetricsQuery, aggregate: (MetricsAggregate) -> Void, latency: (LatencyAggregate) -> Void) throws {
        reads += 1
        aggregate(MetricsAggregate(key: key, evaluations: 100 + reads))
    }
}

@Suite struct MetricsSnapshotTests {
    let query = MetricsQuery(tenant: TenantID("acme")!, days: 19_000...20_000, groupBy: [], environments: [.production])

    /// The report's three answers read the store three times, and a server writing meanwhile made its rows not sum
    /// to its summary line (report probe, 6 December); read once, they agree.
    @Test func reportsFromOneSnapshotAgreeWhileTheSourceGrows() throws {
        let source = GrowingMetricsSource(key: .init(
            environment: .production, day: 19_900, category: .payment, modelVersion: "2026.11.1", outcome: .high,
            consumption: .missing))
        let policy = MetricsPolicy(suppressionK: 0, maturityDays: 0)
        func totals(_ metrics: LabelMetrics) throws -> (overall: Int, byOutcome: Int) {
            var byOutcome = query
            byOutcome.groupBy = [.outcome]
            return (try metrics.report(query, now: 0).groups.compactMap(\.evaluations).reduce(0, +),
                    try metrics.report(byOutcome, now: 0).groups.compactMap(\.evaluations).reduce(0, +))
        }
        let live = try totals(LabelMetrics(source: source, policy: policy))
        #expect(live.overall != live.byOutcome, "the fake does not grow between reads")
        let snapshot = try totals(LabelMetrics(source: try MetricsSnapshot(of: source, query), policy: policy))
        #expect(snapshot.overall == snapshot.byOutcome)
    }

    /// Only the slice a query asks for: another tenant, environment or day range gets none of the rest.
    @Test func answersOnlyWithinTheQuerysSlice() throws {
        let source = FakeMetricsSource(aggregates: [
            .init(key: .init(environment: .production, day: 19_900, category: .payment, modelVersion: "1", outcome: .high, consumption: .missing), evaluations: 5),
            .init(key: .init(environment: .production, day: 19_950, category: .payment, modelVersion: "1", outcome: .high, consumption: .missing), evaluations: 7),
        ])
        let snapshot = try MetricsSnapshot(of: source, query)
        var narrower = query
        narrower.days = 19_940...19_960
        var seen: [Int] = []
        try snapshot.forEachAggregate(narrower, aggregate: { seen.append($0.evaluations) }, latency: { _ in })
        #expect(seen == [7])
        var other = query
        other.tenant = TenantID("other")!
        try snapshot.forEachAggregate(other, aggregate: { seen.append($0.evaluations) }, latency: { _ in })
        var sandbox = query
        sandbox.environments = [.sandbox]
        try snapshot.forEachAggregate(sandbox, aggregate: { seen.append($0.evaluations) }, latency: { _ in })
        #expect(seen == [7])
    }
}
