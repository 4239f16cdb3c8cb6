import InsightCore
import InsightSimulation

#if canImport(Glibc)
import Glibc
#endif

/// `trust-insights simulate`: writes labelled synthetic sessions of one category as CSV (docs/SIMULATOR.md).
enum SimulateCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "simulate",
            abstract: "Write labelled synthetic sessions of one operation category as CSV.",
            discussion: """
                Sessions come from documented stories of genuine and coached use (docs/SIMULATOR.md). The header is \
                `label,<features in catalogue order>`, label 1 = coached, an empty field = missing. The same seed \
                gives the same bytes.
                """,
            options: [
                .value("category", "category", help: "payment, account, resourceUse, communication or other.", required: true),
                .value("rows", "count", help: "Number of sessions to write.", required: true),
                .value("seed", "seed", help: "Seed of the generator (unsigned 64-bit).", default: "1"),
                .value("positive-rate", "rate", help: "Share of coached sessions, 0...1.", default: "0.1"),
                .value("out", "file", help: "Output CSV file, or - for standard output.", required: true),
                .value("config-dir", "directory", help: "Configuration folder holding features/.", default: "./config"),
            ]
        ) { arguments, environment in
            let categoryName = try arguments.choice("category", from: OperationCategory.allCases.map(\.rawValue))!
            let category = OperationCategory(rawValue: categoryName)!
            let rows = try arguments.int("rows", in: 1...100_000_000)!
            let seedText = arguments.value("seed") ?? "1"
            guard let seed = UInt64(seedText) else {
                throw CommandLineError.usage("The value '\(seedText)' is invalid for '--seed': expected an unsigned integer")
            }
            let positiveRate = try arguments.double("positive-rate", in: 0...1) ?? 0.1
            let output = try arguments.required("out")
            let configDirectory = arguments.value("config-dir") ?? "./config"

            let catalogue: FeatureCatalogue
            // Said before loading: the catalogue's loader names its first file, which is another category's.
            guard FileSystem.isDirectory(atPath: configDirectory + "/features") else {
                throw CommandLineError.configuration(
                    key: "features", message: "no feature catalogue at \(configDirectory)/features (run from the service's folder, or give --config-dir)")
            }
            do {
                catalogue = try FeatureCatalogue.load(from: configDirectory + "/features")
            } catch {
                throw CommandLineError.configuration(key: "features", message: "\(error)")
            }
            var simulator = try SessionSimulator(
                category: category, catalogue: catalogue, seed: seed, positiveRate: positiveRate)
            let descriptor = output == "-" ? 1 : open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw CommandLineError.failure("cannot open \(output) for writing") }
            defer { if descriptor != 1 { close(descriptor) } }
            let positives = try simulator.writeCSV(rows: rows) { chunk in
                try OutputFile.writeAll(chunk, to: descriptor, path: output)
            }
            if output != "-" {
                environment.printError("simulate: wrote \(rows) \(category.rawValue) sessions (\(positives) coached) to \(output)")
            }
            return 0
        }
    }
}
