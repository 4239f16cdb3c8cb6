import InsightCore

/// `trust-insights report --out report.html`: the analyst's HTML report, straight from the data folder.
enum ReportCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "report",
            abstract: "Write a self-contained HTML report of the label metrics, with inline SVG charts.",
            discussion: """
                Four charts, each with a short table: outcome mix over time, precision and recall per model version, \
                consumption mix, and label latency. One file with no script and no external asset; the figures obey \
                the same suppression as the API. scripts/render-report.sh renders it to PNG with headless Chromium.
                """,
            options: MetricsCommandSupport.rangeOptions + [
                .value("out", "file", help: "The HTML file to write.", required: true),
            ] + MetricsCommandSupport.configurationOptions
        ) { arguments, environment in
            let now = Clock.nowMilliseconds()
            let request = try MetricsCommandSupport.request(arguments, now: now)
            let output = try arguments.required("out")
            let metrics = try MetricsCommandSupport.metrics(
                arguments, environment, tenant: request.query.tenant, output: output, product: "the report")
            // Exact figures first: the page's three answers are suppressed together (ReportDisclosure), not one by one.
            // All three from one read, so that they sum to each other while a server writes.
            let snapshot: MetricsSnapshot
            do {
                snapshot = try MetricsSnapshot(of: metrics.source, request.query)
            } catch {
                throw CommandLineError.failure("cannot read the metrics aggregates")
            }
            let exact = LabelMetrics(source: snapshot, policy: MetricsPolicy(suppressionK: 0, maturityDays: metrics.policy.maturityDays))
            func report(_ groupBy: [MetricsDimension]) throws -> LabelMetricsReport {
                var query = request.query
                query.groupBy = groupBy
                do {
                    return try exact.report(query, now: now)
                } catch {
                    throw CommandLineError.failure("cannot read the metrics aggregates")
                }
            }
            let disclosure = ReportDisclosure(
                exactOverall: try report([]), byOutcome: try report([.outcome]), byModelVersion: try report([.modelVersion]),
                policy: metrics.policy, today: MetricsQuery.day(ofMilliseconds: now))
            let page = MetricsReportPage(overall: disclosure.overall, byOutcome: disclosure.byOutcome, byModelVersion: disclosure.byModelVersion)
            try MetricsCommandSupport.write(Array(page.html().utf8), to: output, environment)
            if output != "-" { environment.printError("report: wrote \(output)") }
            return 0
        }
    }
}
