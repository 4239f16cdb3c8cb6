import Testing
import InsightCore
@testable import TrustInsightsApp

/// The report's three answers are suppressed as one table: no count the page withholds can be worked out from the
/// page's other figures through the sums between them, and every published count is at least k.
@Suite struct ReportDisclosureTests {
    /// The aggregates given, and as the store keeps them, a latency count for every label (here all 3 days late).
    struct Source: MetricsSource {
        var aggregates: [MetricsAggregate]
        func forEachAggregate(_ query: MetricsQuery, aggregate: (MetricsAggregate) -> Void, latency: (LatencyAggregate) -> Void) throws {
            aggregates.forEach(aggregate)
            for counts in aggregates where counts.confirmedFraud + counts.confirmedLegitimate > 0 {
                latency(LatencyAggregate(key: counts.key, latencyDays: 3, labels: counts.confirmedFraud + counts.confirmedLegitimate))
            }
        }
    }

    static let today: Int64 = 20_500
    let tenant = TenantID("acme")!

    static func aggregate(
        day: Int64 = today, version: String = "2026.11.1", _ outcome: RiskLevel, evaluations: Int, fraud: Int, legitimate: Int = 0,
        consumption: ConsumptionBucket = .usedIncreasedFriction
    ) -> MetricsAggregate {
        MetricsAggregate(
            key: .init(environment: .production, day: day, category: .payment, modelVersion: version, outcome: outcome, consumption: consumption),
            evaluations: evaluations, confirmedFraud: fraud, confirmedLegitimate: legitimate)
    }

    func disclosure(_ aggregates: [MetricsAggregate], k: Int, maturityDays: Int = MetricsPolicy.defaultMaturityDays) throws -> ReportDisclosure {
        try disclosure(source: Source(aggregates: aggregates), k: k, maturityDays: maturityDays)
    }

    func disclosure(source: some MetricsSource, k: Int, maturityDays: Int = MetricsPolicy.defaultMaturityDays) throws -> ReportDisclosure {
        let exact = LabelMetrics(source: source, policy: MetricsPolicy(suppressionK: 0))
        func report(_ groupBy: [MetricsDimension]) throws -> LabelMetricsReport {
            try exact.report(
                MetricsQuery(tenant: tenant, days: (Self.today - 89)...Self.today, groupBy: groupBy, environments: [.production]),
                now: Self.today * 86_400_000)
        }
        return ReportDisclosure(
            exactOverall: try report([]), byOutcome: try report([.outcome]), byModelVersion: try report([.modelVersion]),
            policy: MetricsPolicy(suppressionK: k, maturityDays: maturityDays), today: Self.today)
    }

    /// One sum the page shows: published figures (nil when withheld) and the exact ones.
    struct Sum {
        var name: String
        var total: (shown: Int?, exact: Int)
        var parts: [(shown: Int?, exact: Int)]
    }

    func sums(_ shown: ReportDisclosure, _ exact: ReportDisclosure) -> [Sum] {
        let (s, e) = (shown.overall.groups[0], exact.overall.groups[0])
        var sums = [
            Sum(name: "outcome evaluations", total: (s.evaluations, e.evaluations!),
                parts: zip(shown.byOutcome.groups, exact.byOutcome.groups).map { ($0.evaluations, $1.evaluations!) }),
            Sum(name: "outcome fraud", total: (s.confirmedFraud, e.confirmedFraud!),
                parts: zip(shown.byOutcome.groups, exact.byOutcome.groups).map { ($0.confirmedFraud, $1.confirmedFraud!) }),
            Sum(name: "version evaluations", total: (s.evaluations, e.evaluations!),
                parts: zip(shown.byModelVersion.groups, exact.byModelVersion.groups).map { ($0.evaluations, $1.evaluations!) }),
            Sum(name: "version fraud", total: (s.confirmedFraud, e.confirmedFraud!),
                parts: zip(shown.byModelVersion.groups, exact.byModelVersion.groups).map { ($0.confirmedFraud, $1.confirmedFraud!) }),
            Sum(name: "consumption", total: (s.evaluations, e.evaluations!),
                parts: zip(s.consumption, e.consumption).map { ($0.evaluations, $1.evaluations!) }),
        ]
        for (group, exactGroup) in zip(shown.byOutcome.groups, exact.byOutcome.groups) {
            sums.append(Sum(name: "days of \(group.value(of: .outcome) ?? "?")", total: (group.evaluations, exactGroup.evaluations!),
                            parts: zip(group.series, exactGroup.series).map { ($0.evaluations, $1.evaluations!) }))
        }
        return sums
    }

    /// A withheld part of a shown total needs company holding k in all; a withheld total needs a withheld part.
    func expectNothingRecomputable(_ shown: ReportDisclosure, _ exact: ReportDisclosure, k: Int) {
        for sum in sums(shown, exact) {
            let withheld = sum.parts.filter { $0.shown == nil }
            if sum.total.shown != nil, !withheld.isEmpty {
                #expect(withheld.count >= 2 && withheld.map(\.exact).reduce(0, +) >= k, "\(sum.name): a withheld count is the total minus the rest")
            }
            if sum.total.shown == nil, !sum.parts.isEmpty {
                #expect(!withheld.isEmpty, "\(sum.name): a withheld total is the sum of its parts")
            }
            for part in sum.parts + [sum.total] where part.shown != nil {
                #expect(part.shown == part.exact && part.exact >= k, "\(sum.name): a published count is exact and at least k")
            }
        }
    }

    @Test func aWithheldOutcomeRowCannotBeTheSummaryMinusTheOtherRows() throws {
        // The outside review's case: 35 evaluations, 25 fraud; medium alone is below k = 10.
        let data = [
            Self.aggregate(.unknown, evaluations: 20, fraud: 11), Self.aggregate(.medium, evaluations: 3, fraud: 2),
            Self.aggregate(.high, evaluations: 12, fraud: 12),
        ]
        let shown = try disclosure(data, k: 10)
        let exact = try disclosure(data, k: 0)
        let medium = shown.byOutcome.groups.first { $0.value(of: .outcome) == "medium" }
        #expect(medium?.evaluations == nil && medium?.confirmedFraud == nil)
        // Before, the page showed the summary (35, 25) beside unknown (20, 11) and high (12, 12).
        let summary = shown.overall.groups[0]
        let unknown = shown.byOutcome.groups.first { $0.value(of: .outcome) == "unknown" }
        let high = shown.byOutcome.groups.first { $0.value(of: .outcome) == "high" }
        #expect(summary.evaluations == nil || unknown?.evaluations == nil || high?.evaluations == nil)
        expectNothingRecomputable(shown, exact, k: 10)
    }

    /// The second outside review's case: no `medium` at all on a day. The chart had printed that day's medium as 0
    /// beside a withheld medium row, so the withheld unknown row was the summary minus high minus 0.
    @Test func anOutcomeAbsentOnADayIsAWithheldZeroInTheChartToo() throws {
        let data = [Self.aggregate(.unknown, evaluations: 16, fraud: 0), Self.aggregate(.high, evaluations: 24, fraud: 0)]
        let shown = try disclosure(data, k: 10)
        let exact = try disclosure(data, k: 0)
        for group in shown.byOutcome.groups {
            #expect(group.series.map(\.day) == [Self.today], "every outcome has a cell on every day the chart shows")
        }
        let medium = try #require(shown.byOutcome.groups.first { $0.value(of: .outcome) == "medium" })
        #expect(medium.series.first?.evaluations == nil)
        #expect(exact.byOutcome.groups.first { $0.value(of: .outcome) == "medium" }?.series.first?.evaluations == 0)
        let html = MetricsReportPage(overall: shown.overall, byOutcome: shown.byOutcome, byModelVersion: shown.byModelVersion).html()
        #expect(!html.contains("medium: 0"), "a zero below k is not printed")
        expectNothingRecomputable(shown, exact, k: 10)
    }

    @Test(arguments: [3, 5, 10, 20])
    func nothingWithheldCanBeWorkedOutOnALargerPage(k: Int) throws {
        var data: [MetricsAggregate] = []
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for day in (Self.today - 20)...Self.today {
            for version in ["2026.09.1", "2026.11.1"] {
                for outcome in RiskLevel.allCases where next(3) > 0 {
                    let evaluations = 1 + next(14)
                    let fraud = next(evaluations + 1)
                    data.append(Self.aggregate(
                        day: day, version: version, outcome, evaluations: evaluations, fraud: fraud, legitimate: next(evaluations - fraud + 1),
                        consumption: ConsumptionBucket.allCases[next(ConsumptionBucket.allCases.count)]))
                }
            }
        }
        expectNothingRecomputable(try disclosure(data, k: k), try disclosure(data, k: 0), k: k)
    }

    @Test func anEmptyRangeShowsWithheldZerosEverywhereOrZerosWithoutSuppression() throws {
        let shown = try disclosure([], k: 10)
        #expect(shown.overall.groups[0].evaluations == nil)
        #expect(shown.byOutcome.groups.map(\.evaluations) == [nil, nil, nil])
        let open = try disclosure([], k: 0)
        #expect(open.overall.groups[0].evaluations == 0)
        #expect(open.byOutcome.groups.map(\.evaluations) == [0, 0, 0])
        let html = MetricsReportPage(overall: open.overall, byOutcome: open.byOutcome, byModelVersion: open.byModelVersion).html()
        #expect(html.contains("0 evaluations") && html.contains("no data"))
        #expect(html.contains("No count is withheld"))
    }

    /// A maturity of 0 days waits for no label: the page said groups "younger than 0 days are immature" (found by a
    /// probe).
    @Test(arguments: [(0, "Every group is mature (metricsMaturityDays is 0: labels are not waited for)."),
                      (1, "younger than 1 day are immature"), (30, "younger than 30 days are immature")])
    func theMaturityNoteSaysWhatTheSettingMeans(days: Int, text: String) throws {
        let open = try disclosure([Self.aggregate(version: "2026.11.1", .high, evaluations: 3, fraud: 1)], k: 0, maturityDays: days)
        let html = MetricsReportPage(overall: open.overall, byOutcome: open.byOutcome, byModelVersion: open.byModelVersion).html()
        #expect(html.contains(text))
        #expect(!html.contains("than 0 days"))
    }

    /// With suppression off nothing is withheld, so a ratio with nothing to divide (a model version without labels)
    /// is "n/a", not the page's mark for withheld, and no chart's legend offers a withheld mark.
    @Test func withoutSuppressionAnUndefinedRatioIsNotApplicableNotWithheld() throws {
        let data = [Self.aggregate(version: "2026.11.1", .high, evaluations: 30, fraud: 20, legitimate: 10),
                    Self.aggregate(version: "2026.09.1", .high, evaluations: 1, fraud: 0)]
        let open = try disclosure(data, k: 0)
        let html = MetricsReportPage(overall: open.overall, byOutcome: open.byOutcome, byModelVersion: open.byModelVersion).html()
        #expect(!html.contains(": withheld") && !html.contains(">withheld<") && !html.contains("—"))
        #expect(html.contains("2026.09.1 · precision at high: not applicable, nothing to divide"))
        #expect(html.contains("<td>n/a</td>"))
        // With suppression on, the same nulls are withheld and say so.
        let shown = try disclosure(data, k: 10)
        let suppressed = MetricsReportPage(overall: shown.overall, byOutcome: shown.byOutcome, byModelVersion: shown.byModelVersion).html()
        #expect(suppressed.contains(">withheld<") && suppressed.contains("—") && !suppressed.contains("n/a"))
    }

    /// A share of no evaluations read 0.0% in the consumption table, beside `n/a` for the page's other ratios
    /// (report probe, 6 December).
    @Test func aShareOfNoEvaluationsIsNotApplicable() throws {
        let empty = try disclosure([], k: 0)
        let html = MetricsReportPage(overall: empty.overall, byOutcome: empty.byOutcome, byModelVersion: empty.byModelVersion).html()
        #expect(!html.contains("<td>0.0%</td>"), "\(html)")
        #expect(html.contains(#"<th scope="row">usedReducedFriction</th><td>0</td><td>n/a</td>"#), "\(html)")
        #expect(!html.contains("—"))
    }

    /// Day labels carry the year once the days span more than one (over 1830 days, `12-08` stood for five dates),
    /// and count axes tick at whole counts (an empty chart's axis read 0, 0.3, 0.5, 0.8, 1). Report probe, 6 December.
    @Test func dayLabelsCarryTheYearAcrossYearsAndCountTicksAreWhole() throws {
        func page(_ data: [MetricsAggregate]) throws -> String {
            let open = try disclosure(data, k: 0)
            return MetricsReportPage(overall: open.overall, byOutcome: open.byOutcome, byModelVersion: open.byModelVersion).html()
        }
        let oneYear = try page([Self.aggregate(day: 20_490, .high, evaluations: 3, fraud: 1), Self.aggregate(day: 20_500, .high, evaluations: 3, fraud: 1)])
        #expect(oneYear.contains(">02-06<") && !oneYear.contains(">2026-02-06<"))
        let twoYears = try page([Self.aggregate(day: 20_420, .high, evaluations: 3, fraud: 1), Self.aggregate(day: 20_500, .high, evaluations: 3, fraud: 1)])
        #expect(twoYears.contains(">2025-11-28<") && twoYears.contains(">2026-02-16<"), "\(twoYears)")
        let empty = try page([])
        for fraction in [">0.3<", ">0.5<", ">0.8<", ">1.5<", ">2.5<"] { #expect(!empty.contains(fraction), "\(fraction)") }
        #expect(SVGBarChart.wholeIntervals(1) == 1 && SVGBarChart.wholeIntervals(2) == 2 && SVGBarChart.wholeIntervals(5) == 5)
        #expect(SVGBarChart.wholeIntervals(10) == 5 && SVGBarChart.wholeIntervals(20) == 4 && SVGBarChart.wholeIntervals(50) == 5)
        #expect(SVGBarChart.wholeIntervals(100) == 4)
    }

    /// The page's median and 90th percentile follow the API's rule (QuantileDisclosure): beside withheld buckets
    /// on both sides they would bound how the withheld labels split, so they are withheld too.
    @Test func latencyQuantilesBesideWithheldBucketsOnBothSidesAreWithheld() throws {
        struct Spread: MetricsSource {
            var aggregate: MetricsAggregate
            var latencies: [(days: Int, labels: Int)]
            func forEachAggregate(_ query: MetricsQuery, aggregate: (MetricsAggregate) -> Void, latency: (LatencyAggregate) -> Void) throws {
                aggregate(self.aggregate)
                for entry in latencies { latency(LatencyAggregate(key: self.aggregate.key, latencyDays: entry.days, labels: entry.labels)) }
            }
        }
        func page(_ latencies: [(days: Int, labels: Int)], k: Int) throws -> GroupMetrics {
            let source = Spread(aggregate: Self.aggregate(.unknown, evaluations: 100, fraud: 20, legitimate: 43), latencies: latencies)
            return try disclosure(source: source, k: k).overall.groups[0]
        }
        let bothSides = try page([(0, 9), (1, 4), (2, 5), (5, 5), (10, 5), (20, 12), (40, 5), (90, 12), (100, 5), (200, 1)], k: 3)
        #expect(bothSides.latency.histogram.map(\.labels) == [9, nil, 5, 5, 5, 12, 5, 12, 5, nil])
        #expect(bothSides.latency.medianDays == nil && bothSides.latency.p90Days == nil)
        // Unsuppressed, the page shows them.
        let exact = try page([(0, 9), (1, 4), (2, 5), (5, 5), (10, 5), (20, 12), (40, 5), (90, 12), (100, 5), (200, 1)], k: 0)
        #expect(exact.latency.medianDays == 20 && exact.latency.p90Days == 90)
    }

    @Test func ratiosAreShownOnlyWhenTheirCountsFollowFromThePage() throws {
        let data = [
            Self.aggregate(.unknown, evaluations: 40, fraud: 5, legitimate: 20), Self.aggregate(.medium, evaluations: 30, fraud: 12, legitimate: 12),
            Self.aggregate(.high, evaluations: 30, fraud: 20, legitimate: 10),
        ]
        let shown = try disclosure(data, k: 10)
        let high = try #require(shown.byOutcome.groups.first { $0.value(of: .outcome) == "high" })
        #expect(high.outcomes.first?.fraudRate == 20.0 / 30.0)
        let version = try #require(shown.byModelVersion.groups.first)
        #expect(version.recallHigh == 20.0 / 37.0)
        // Unknown's 5 fraud labels are withheld, and medium's 12 with them (else 37 - 12 - 20 gives the 5 away); so
        // are the rates that would give either away.
        let unknown = try #require(shown.byOutcome.groups.first { $0.value(of: .outcome) == "unknown" })
        let medium = try #require(shown.byOutcome.groups.first { $0.value(of: .outcome) == "medium" })
        #expect(unknown.confirmedFraud == nil && unknown.outcomes.first?.fraudRate == nil)
        #expect(medium.confirmedFraud == nil && medium.outcomes.first?.fraudRate == nil)
        #expect(version.recallMediumOrAbove == nil)
    }
}
