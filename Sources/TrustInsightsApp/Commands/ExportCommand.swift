import InsightCore
import InsightService

/// `trust-insights export metrics`: the label metrics of `GET /v1/metrics/labels`, read straight from the data
/// folder, under the same suppression and maturity rules (docs/METRICS.md).
enum ExportCommand {
    static var spec: CommandSpec {
        CommandSpec(name: "export", abstract: "Export analyst figures from the data folder.", subcommands: [metrics])
    }

    static var metrics: CommandSpec {
        CommandSpec(
            name: "metrics",
            abstract: "Write label metrics (precision, recall, consumption mix, label latency) as JSON or CSV.",
            discussion: """
                The same figures as GET /v1/metrics/labels, with the same small-cell suppression (counts below \
                metricsSuppressionK are withheld) and maturity flag (docs/METRICS.md). It only reads, and may run while the \
                server runs.
                """,
            options: MetricsCommandSupport.rangeOptions + [
                .value("group-by", "dimensions", help: "Comma-separated: category, modelVersion, outcome, consumption, environment."),
                .value("format", "format", help: "json or csv.", default: "json"),
                .value("out", "file", help: "Output file, or - for standard output.", default: "-"),
            ] + MetricsCommandSupport.configurationOptions
        ) { arguments, environment in
            let now = Clock.nowMilliseconds()
            let request = try MetricsCommandSupport.request(arguments, now: now)
            let output = arguments.value("out") ?? "-"
            let metrics = try MetricsCommandSupport.metrics(
                arguments, environment, tenant: request.query.tenant, output: output, product: "the export")
            let report: LabelMetricsReport
            do {
                report = try metrics.report(request.query, now: now)
            } catch {
                throw CommandLineError.failure("cannot read the metrics aggregates")
            }
            let bytes = request.format == .csv ? MetricsCSVEncoder.encode(report) : MetricsJSONEncoder.encode(report)
            try MetricsCommandSupport.write(bytes, to: output, environment)
            if output != "-" {
                environment.printError("export: wrote \(report.groups.count) groups (\(request.format.rawValue)) to \(output)")
            }
            return 0
        }
    }
}
