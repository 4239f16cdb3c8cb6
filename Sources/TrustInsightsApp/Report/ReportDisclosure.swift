import InsightCore

/// The report's figures under one suppression.
///
/// The page sets three answers side by side (overall, by outcome, by model version), and their counts add up across
/// answers: the outcome table sums to the summary line, the model versions sum to it too, an outcome's days sum to
/// its row. Each answer's own suppression protects it alone, so a count one answer withholds could be worked out
/// from another's (a withheld `medium` row was the summary minus the other two rows). Here every count the page
/// shows is one cell of one table, with every sum between them, suppressed once with the API's rules
/// (`SmallCellSuppression`): no withheld count can be recomputed from anything on the page.
struct ReportDisclosure {
    var overall: LabelMetricsReport
    var byOutcome: LabelMetricsReport
    var byModelVersion: LabelMetricsReport

    /// `overall`, `byOutcome` and `byModelVersion` are the exact answers (queried with suppression off, k = 0) for
    /// the same range; the result publishes them under `policy`.
    init(exactOverall overall: LabelMetricsReport, byOutcome: LabelMetricsReport, byModelVersion: LabelMetricsReport, policy: MetricsPolicy, today: Int64) {
        self.overall = overall
        self.byOutcome = byOutcome
        self.byModelVersion = byModelVersion
        self.overall.policy = policy
        self.byOutcome.policy = policy
        self.byModelVersion.policy = policy
        if self.overall.groups.isEmpty { self.overall.groups = [.empty([], today: today)] }
        // Every outcome has a row, zero included: a zero is a count below k like any other.
        self.byOutcome.groups = RiskLevel.allCases.map { level in
            byOutcome.groups.first { $0.value(of: .outcome) == level.rawValue }
                ?? .empty([(.outcome, level.rawValue)], outcome: level, today: today)
        }
        // Likewise every outcome has a cell on every day the chart shows: a day without that outcome is a zero,
        // withheld like any count below k (printed as 0 beside a withheld row, it gave that row away).
        let chartDays = Dictionary(
            self.byOutcome.groups.flatMap(\.series).map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        for index in self.byOutcome.groups.indices {
            let present = Set(self.byOutcome.groups[index].series.map(\.day))
            let zeros = chartDays.values.filter { !present.contains($0.day) }.map { day -> GroupMetrics.Day in
                var zero = day
                zero.evaluations = 0
                zero.confirmedFraud = 0
                zero.confirmedLegitimate = 0
                return zero
            }
            guard !zeros.isEmpty else { continue }
            self.byOutcome.groups[index].series = (self.byOutcome.groups[index].series + zeros).sorted { $0.day < $1.day }
        }
        if policy.suppressionK > 0 { suppress(k: policy.suppressionK) }
    }

    private typealias Withhold = (inout ReportDisclosure) -> Void

    private mutating func suppress(k: Int) {
        var table = SuppressionTable()
        var withholds: [Withhold] = []
        func cell(_ value: Int?, isTotal: Bool = false, _ withhold: @escaping Withhold) -> Int {
            withholds.append(withhold)
            return table.addCell(value ?? 0, isTotal: isTotal)
        }

        let total = overall.groups[0]
        let evaluations = cell(total.evaluations, isTotal: true) { $0.overall.groups[0].evaluations = nil }
        let fraud = cell(total.confirmedFraud, isTotal: true) { $0.overall.groups[0].confirmedFraud = nil }
        let legitimate = cell(total.confirmedLegitimate, isTotal: true) { $0.overall.groups[0].confirmedLegitimate = nil }
        let consumption = total.consumption.indices.map { index in
            cell(total.consumption[index].evaluations) { $0.overall.groups[0].consumption[index].evaluations = nil }
        }
        table.addSum(total: evaluations, parts: consumption)
        _ = cell(total.late) { $0.overall.groups[0].late = nil }
        let histogram = total.latency.histogram.indices.map { index in
            cell(total.latency.histogram[index].labels) { $0.overall.groups[0].latency.histogram[index].labels = nil }
        }
        table.addSum(totals: [fraud, legitimate], parts: histogram)

        // Outcome rows, and each outcome's days in the chart.
        var outcomeCells: [(n: Int, f: Int, l: Int)] = []
        for (index, group) in byOutcome.groups.enumerated() {
            let n = cell(group.evaluations, isTotal: true) { $0.byOutcome.groups[index].evaluations = nil }
            let f = cell(group.confirmedFraud) { $0.byOutcome.groups[index].confirmedFraud = nil }
            let l = cell(group.confirmedLegitimate) { $0.byOutcome.groups[index].confirmedLegitimate = nil }
            outcomeCells.append((n, f, l))
            let days = group.series.indices.map { day in
                cell(group.series[day].evaluations) { $0.byOutcome.groups[index].series[day].evaluations = nil }
            }
            table.addSum(total: n, parts: days)
        }
        table.addSum(total: evaluations, parts: outcomeCells.map(\.n))
        table.addSum(total: fraud, parts: outcomeCells.map(\.f))
        table.addSum(total: legitimate, parts: outcomeCells.map(\.l))

        // Model versions: their totals, and the per-outcome counts behind their precision and recall.
        var versionCells: [(n: Int, f: Int, l: Int, outcomes: [RiskLevel: (n: Int, f: Int, l: Int)])] = []
        for (index, group) in byModelVersion.groups.enumerated() {
            let n = cell(group.evaluations, isTotal: true) { $0.byModelVersion.groups[index].evaluations = nil }
            let f = cell(group.confirmedFraud) { $0.byModelVersion.groups[index].confirmedFraud = nil }
            let l = cell(group.confirmedLegitimate) { $0.byModelVersion.groups[index].confirmedLegitimate = nil }
            var outcomes: [RiskLevel: (n: Int, f: Int, l: Int)] = [:]
            for (position, figures) in group.outcomes.enumerated() {
                outcomes[figures.outcome] = (
                    cell(figures.evaluations) { $0.byModelVersion.groups[index].outcomes[position].evaluations = nil },
                    cell(figures.confirmedFraud) { $0.byModelVersion.groups[index].outcomes[position].confirmedFraud = nil },
                    cell(figures.confirmedLegitimate) { $0.byModelVersion.groups[index].outcomes[position].confirmedLegitimate = nil })
            }
            table.addSum(total: n, parts: outcomes.values.map(\.n))
            table.addSum(total: f, parts: outcomes.values.map(\.f))
            table.addSum(total: l, parts: outcomes.values.map(\.l))
            versionCells.append((n, f, l, outcomes))
        }
        if !versionCells.isEmpty {
            table.addSum(total: evaluations, parts: versionCells.map(\.n))
            table.addSum(total: fraud, parts: versionCells.map(\.f))
            table.addSum(total: legitimate, parts: versionCells.map(\.l))
            for (index, level) in RiskLevel.allCases.enumerated() {
                table.addSum(total: outcomeCells[index].n, parts: versionCells.compactMap { $0.outcomes[level]?.n })
                table.addSum(total: outcomeCells[index].f, parts: versionCells.compactMap { $0.outcomes[level]?.f })
                table.addSum(total: outcomeCells[index].l, parts: versionCells.compactMap { $0.outcomes[level]?.l })
            }
        }

        let outcome = SmallCellSuppression(k: k).apply(to: table)
        for (index, withhold) in withholds.enumerated() where outcome.suppressed[index] { withhold(&self) }

        // A ratio is shown only when its numerator and denominator follow from what the page shows.
        func publishable(_ numerator: [Int], _ denominator: [Int]) -> Bool {
            outcome.canPublish(cells: numerator) && outcome.canPublish(cells: denominator)
        }
        for (index, cells) in outcomeCells.enumerated() where !publishable([cells.f], [cells.f, cells.l]) {
            for position in byOutcome.groups[index].outcomes.indices { byOutcome.groups[index].outcomes[position].fraudRate = nil }
        }
        for (index, cells) in versionCells.enumerated() {
            for (position, figures) in byModelVersion.groups[index].outcomes.enumerated() {
                guard let own = cells.outcomes[figures.outcome], !publishable([own.f], [own.f, own.l]) else { continue }
                byModelVersion.groups[index].outcomes[position].fraudRate = nil
            }
            let medium = cells.outcomes[.medium]?.f
            let high = cells.outcomes[.high]?.f
            if medium == nil || high == nil || !publishable([medium!, high!], [cells.f]) { byModelVersion.groups[index].recallMediumOrAbove = nil }
            if high == nil || !publishable([high!], [cells.f]) { byModelVersion.groups[index].recallHigh = nil }
        }
        // Quantiles of fewer than k labels single out labels, and beside withheld buckets they may bound those
        // buckets: the API's rules (QuantileDisclosure).
        let labels = (total.confirmedFraud ?? 0) + (total.confirmedLegitimate ?? 0)
        let bucketCounts = total.latency.histogram.map { $0.labels ?? 0 }
        let bucketWithheld = histogram.map { outcome.suppressed[$0] }
        let totalComputable = outcome.canPublish(cells: histogram)
        func mayPublish(_ days: Int?) -> Bool {
            guard labels >= k, let days else { return false }
            return QuantileDisclosure.mayPublish(
                days: days, bucketCounts: bucketCounts, withheld: bucketWithheld, totalComputable: totalComputable)
        }
        if !mayPublish(total.latency.medianDays) { overall.groups[0].latency.medianDays = nil }
        if !mayPublish(total.latency.p90Days) { overall.groups[0].latency.p90Days = nil }
    }
}
