import InsightCore

/// The analyst's HTML report: one self-contained file (inline CSS and SVG, no script, no external asset) with four
/// charts, each followed by a short table. The figures are those of three metrics queries over the same range
/// (overall, by outcome, by model version), suppressed together by `ReportDisclosure` with the API's rules.
struct MetricsReportPage {
    var overall: LabelMetricsReport
    var byOutcome: LabelMetricsReport
    var byModelVersion: LabelMetricsReport

    static let chartIDs = ["chart-outcome-mix", "chart-model-versions", "chart-consumption-mix", "chart-label-latency"]
    static let outcomeColors: [RiskLevel: String] = [.unknown: "#9aa5b1", .medium: "#f0a202", .high: "#d1495b"]

    func html() -> String {
        let query = overall.query
        let total = overall.groups.first
        let environments = DeploymentEnvironment.allCases.filter { query.environments.contains($0) }.map(\.rawValue).joined(separator: ", ")
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>Label metrics · \(HTMLText.escape(query.tenant.rawValue))</title>
            <style>\(Self.style)</style></head><body>
            <h1>Label metrics · \(HTMLText.escape(query.tenant.rawValue))</h1>
            <p class="meta">Evaluations from \(day(query.days.lowerBound)) to \(day(query.days.upperBound)) (UTC), \
            \(HTMLText.escape(environments)). Generated \(Timestamp.iso8601(milliseconds: overall.generatedAt)). \
            \(suppressionNote) \(maturityNote)</p>
            <p class="summary"><span>\(HTMLText.count(total?.evaluations)) evaluations</span>\
            <span>\(HTMLText.count(total?.confirmedFraud)) confirmed fraud</span>\
            <span>\(HTMLText.count(total?.confirmedLegitimate)) confirmed legitimate</span>\
            <span>\(total.map { $0.series.isEmpty ? "no data" : $0.mature ? "mature" : "immature" } ?? "no data")</span></p>
            """
        page += outcomeMixSection()
        page += modelVersionSection()
        page += consumptionSection(total)
        page += latencySection(total)
        return page + "</body></html>\n"
    }

    private var suppressionNote: String {
        let k = overall.policy.suppressionK
        guard k > 0 else { return "No count is withheld (suppression is off: metricsSuppressionK is 0)." }
        return "Counts below \(k), zero included, are withheld (— in tables, hatched in charts), with further counts withheld "
            + "so that none can be worked out from the totals or from the other tables on this page."
    }

    private var maturityNote: String {
        let days = overall.policy.maturityDays
        guard days > 0 else { return "Every group is mature (metricsMaturityDays is 0: labels are not waited for)." }
        return "Groups whose newest evaluation is younger than \(days) day\(days == 1 ? "" : "s") are immature: labels may still arrive."
    }

    /// With suppression on every null figure is withheld (a zero denominator is itself a count below k); with it
    /// off a null ratio or quantile has nothing to divide or rank, and `—`, the page's mark for withheld, would
    /// say otherwise.
    private var suppressing: Bool { overall.policy.suppressionK > 0 }
    private var absentFigure: String { suppressing ? "—" : "n/a" }

    private func outcomeMixSection() -> String {
        let days = Set(byOutcome.groups.flatMap { $0.series.map(\.day) }).sorted()
        let groups = RiskLevel.allCases.map { level in (level, byOutcome.groups.first { $0.value(of: .outcome) == level.rawValue }) }
        let series = groups.map { level, group in
            let byDay = Dictionary(uniqueKeysWithValues: (group?.series ?? []).map { ($0.day, $0.evaluations) })
            return SVGBarChart.Series(
                name: level.rawValue, color: Self.outcomeColors[level]!,
                values: days.map { day -> Double? in
                    // ReportDisclosure gives every outcome every day of the chart; a day still absent is a zero.
                    guard let entry = byDay[day] else { return 0 }
                    return entry.map(Double.init)
                })
        }
        let chart = SVGBarChart(
            id: Self.chartIDs[0], title: "Outcome mix over time (evaluations per day)", categories: days.map(dayLabel(spanning: days)),
            series: series, layout: .stacked, absence: suppressing ? .withheld : nil)
        // No group for an outcome means no evaluation with it: a true zero, not a withheld count.
        let rows = groups.map { level, group in
            [level.rawValue, group.map { HTMLText.count($0.evaluations) } ?? "0", group.map { HTMLText.count($0.confirmedFraud) } ?? "0",
             group.map { HTMLText.count($0.confirmedLegitimate) } ?? "0", HTMLText.percent(group?.outcomes.first?.fraudRate, absent: absentFigure)]
        }
        return section("Outcome mix over time", chart.render(), HTMLText.table(
            header: ["outcome", "evaluations", "confirmed fraud", "confirmed legitimate", "fraud rate (precision)"], rows: rows))
    }

    private func modelVersionSection() -> String {
        let groups = byModelVersion.groups
        let versions = groups.map { $0.value(of: .modelVersion).map { $0.isEmpty ? "none" : $0 } ?? "" }
        func rate(_ group: GroupMetrics, _ level: RiskLevel) -> Double? { group.outcomes.first { $0.outcome == level }?.fraudRate }
        let chart = SVGBarChart(
            id: Self.chartIDs[1], title: "Precision and recall per model version", categories: versions,
            series: [
                .init(name: "precision at high", color: "#d1495b", values: groups.map { rate($0, .high) }),
                .init(name: "precision at medium", color: "#f0a202", values: groups.map { rate($0, .medium) }),
                .init(name: "recall at medium or above", color: "#00798c", values: groups.map(\.recallMediumOrAbove)),
                .init(name: "recall at high", color: "#30638e", values: groups.map(\.recallHigh)),
            ],
            absence: suppressing ? .withheld : .notApplicable, yMaximum: 1, format: { HTMLText.percent($0) })
        let rows = zip(versions, groups).map { version, group in
            [version, HTMLText.count(group.evaluations), HTMLText.count(group.confirmedFraud),
             HTMLText.percent(rate(group, .high), absent: absentFigure), HTMLText.percent(rate(group, .medium), absent: absentFigure),
             HTMLText.percent(group.recallMediumOrAbove, absent: absentFigure), HTMLText.percent(group.recallHigh, absent: absentFigure),
             group.mature ? "yes" : "no"]
        }
        return section("Precision and recall per model version", chart.render(), HTMLText.table(
            header: ["model version", "evaluations", "confirmed fraud", "precision at high", "precision at medium",
                     "recall at medium or above", "recall at high", "mature"], rows: rows))
    }

    private func consumptionSection(_ total: GroupMetrics?) -> String {
        let entries = (total?.consumption.map { ($0.bucket.rawValue, $0.evaluations) } ?? ConsumptionBucket.allCases.map { ($0.rawValue, 0) })
            + [("late", total == nil ? 0 : total?.late)]
        let chart = SVGBarChart(
            id: Self.chartIDs[2], title: "Consumption mix (evaluations)", categories: entries.map(\.0),
            series: [.init(name: "evaluations", color: "#00798c", values: entries.map { $0.1.map(Double.init) })],
            absence: suppressing ? .withheld : nil, width: 880)
        let all = total == nil ? 0 : total?.evaluations
        let rows = entries.map { name, count in
            // A share of no evaluations has nothing to divide: `n/a`, as the page's other ratios (it read 0.0%).
            // A withheld count or total is `—`.
            let share = all.flatMap { all in count.map { all > 0 ? HTMLText.percent(Double($0) / Double(all)) : "n/a" } }
            return [name, HTMLText.count(count), share ?? HTMLText.percent(nil)]
        }
        return section("Consumption mix", chart.render(), HTMLText.table(header: ["status", "evaluations", "share"], rows: rows))
    }

    /// A day as the outcome chart labels it: month and day, or the whole date when the days span more than one year
    /// (labels without a year repeated, and could not be read back, over a range of years).
    private func dayLabel(spanning days: [Int64]) -> (Int64) -> String {
        let years = Set(days.map { day($0).prefix(4) })
        return { [self] in years.count > 1 ? day($0) : String(day($0).suffix(5)) }
    }

    private static func days(_ count: Int) -> String {
        count == 1 ? "1 day" : "\(count) days"
    }

    private func latencySection(_ total: GroupMetrics?) -> String {
        let buckets = total?.latency.histogram ?? LatencyBucket.all.map { ($0, 0) }
        let chart = SVGBarChart(
            id: Self.chartIDs[3], title: "Label latency (days from evaluation to first label)", categories: buckets.map(\.bucket.label),
            series: [.init(name: "labels", color: "#30638e", values: buckets.map { $0.labels.map(Double.init) })],
            absence: suppressing ? .withheld : nil)
        var rows = [["median", total?.latency.medianDays.map(Self.days) ?? absentFigure],
                    ["90th percentile", total?.latency.p90Days.map(Self.days) ?? absentFigure]]
        rows += buckets.map { [$0.bucket.label + ($0.bucket.label == "1" ? " day" : " days"), HTMLText.count($0.labels)] }
        return section("Label latency", chart.render(), HTMLText.table(header: ["label latency", "labels"], rows: rows))
    }

    private func section(_ title: String, _ chart: String, _ table: String) -> String {
        "<section><h2>\(HTMLText.escape(title))</h2>\(chart)\(table)</section>\n"
    }

    private func day(_ days: Int64) -> String { Timestamp.day(milliseconds: days * 86_400_000) }

    static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;max-width:920px;margin:24px auto;padding:0 16px}\
        h1{font-size:22px;margin:0 0 6px}h2{font-size:17px;margin:28px 0 6px}.meta{color:#555}\
        .summary span{display:inline-block;margin-right:18px;font-weight:600}\
        svg.chart{display:block;max-width:100%;height:auto;background:#fafafa;border:1px solid #eee}\
        svg .tick{font-size:10px;fill:#555}svg .legend{font-size:11px;fill:#333}svg .empty{font-size:13px;fill:#999}\
        table{border-collapse:collapse;margin:8px 0 0;font-size:13px}th,td{padding:3px 10px;border-bottom:1px solid #e5e5e5;text-align:right}\
        th:first-child{text-align:left}thead th{border-bottom:2px solid #ccc}
        """
}
