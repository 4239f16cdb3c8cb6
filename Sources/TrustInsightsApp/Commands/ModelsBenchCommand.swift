import InsightModel

/// `trust-insights models bench`: single-row latency and batch throughput on one thread, fast paths and the
/// plain reference walk side by side.
enum ModelsBenchCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "bench",
            abstract: "Measure single-row latency and batch rows/s of a model on one thread.",
            discussion: "Single row: median of individually timed calls cycling over the input rows. Batch: best of several passes over all rows. The plain walk is the reference tree walk every fast path must match.",
            options: [
                .value("model", "file", help: "A model in the trust-insights format.", required: true),
                .value("input", "csv", help: "Rows to score (RFC 4180 CSV: a header of feature names; empty, NA or nan = missing).", required: true),
                .value("calls", "n", help: "Timed single-row calls (10000...10000000).", default: "20000"),
                .value("passes", "n", help: "Timed batch passes (1...100).", default: "5"),
                .flag("json", help: "Print one JSON object instead of a table."),
            ]
        ) { arguments, environment in
            let model = try ModelsFiles.loadModel(try arguments.required("model"))
            let input = try arguments.required("input")
            let (rows, _) = try ModelsFiles.loadRows(input, for: model)
            guard rows.rowCount > 0 else { throw CommandLineError.failure("\(input): the input has no rows to time") }
            let calls = try arguments.int("calls", in: 10_000...10_000_000) ?? 20_000
            let passes = try arguments.int("passes", in: 1...100) ?? 5
            let result = ModelBenchmark.run(model: model, rows: rows, calls: calls, passes: passes)
            if arguments.flag("json") {
                environment.print(result.json)
            } else {
                for line in result.table { environment.print(line) }
            }
            return 0
        }
    }
}
