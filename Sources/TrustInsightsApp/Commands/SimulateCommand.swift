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
            // Said before loading when nothing is there: the catalogue's loader names its first file, which is
            // another category's. Something there that is no folder (a file, a loop of links) is left to the loader,
            // which says why it cannot be read (regression probe, 7 December: "no feature catalogue" sent the
            // operator looking for the wrong fault).
            guard FileSystem.entryExists(atPath: configDirectory + "/features") else {
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
            let positives: Int
            if output == "-" {
                // Through the environment, so a closed or failing standard output ends the run with exit 1
                // (`cannot write standard output`) at the first chunk, not after writing every row into nothing.
                positives = try simulator.writeCSV(rows: rows) { chunk in
                    environment.standardOutput(String(decoding: chunk, as: UTF8.self))
                    if let fault = environment.standardOutputFault() {
                        throw CommandLineError.failure("cannot write standard output: \(fault)")
                    }
                }
            } else {
                // The catalogue it read is no place for its rows.
                try OutputFile.refuseOverwriting(
                    inputs: OutputFile.files(in: [configDirectory + "/features"]), option: "out", path: output,
                    with: "the simulated sessions")
                try ServiceFiles.refuseOverwriting(
                    output, option: "out", with: "the simulated sessions", arguments: arguments,
                    environment: environment, configFolders: [configDirectory])
                // Nor is any other models manifest, or a model one pins.
                try ModelsFiles.refuseOverwritingListedModel(output, option: "out")
                positives = try OutputFile.stream(to: output) { sink in try simulator.writeCSV(rows: rows, to: sink) }
            }
            if output != "-" {
                environment.printError("simulate: wrote \(rows) \(category.rawValue) sessions (\(positives) coached) to \(output)")
            }
            return 0
        }
    }
}
