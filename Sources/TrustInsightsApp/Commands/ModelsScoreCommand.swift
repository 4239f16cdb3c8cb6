import FoundationEssentials
import InsightModel

/// `trust-insights models score`: batch-scores a CSV and, when it has labels, reports AUC and log loss.
enum ModelsScoreCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "score",
            abstract: "Score a CSV of rows with a model, writing margin,prob per row.",
            discussion: "The CSV (RFC 4180; quoted fields and CRLF line endings are read) has a header of feature names (matched to the model's), an optional label column, other columns (ignored, whatever UTF-8 text they hold), and empty fields, NA or nan for missing values; in a one-column table a blank line is a row whose value is missing. Values are read as doubles, as the source library receives them, and rounded to float32 for a float32 (XGBoost) model; inf and -inf are scored for a float64 (LightGBM) model, as LightGBM predicts them, and refused for a float32 one, as XGBoost refuses them.",
            options: [
                .value("model", "file", help: "A model in the trust-insights format.", required: true),
                .value("input", "csv", help: "Rows to score.", required: true),
                .value("output", "csv", help: "Where to write margin,prob: a file, or - for standard output.", default: "standard output"),
            ]
        ) { arguments, environment in
            let modelPath = try arguments.required("model"), inputPath = try arguments.required("input")
            // `-` is standard output, as for `simulate --out` and `export --out`, not a file named `-`.
            let outputPath = arguments.value("output").flatMap { $0 == "-" ? nil : $0 }
            if let output = outputPath {
                try OutputFile.refuseOverwriting(inputs: [inputPath, modelPath], option: "output", path: output, with: "the scores")
                try ServiceFiles.refuseOverwriting(
                    output, option: "output", with: "the scores", arguments: arguments, environment: environment)
                try ModelsFiles.refuseOverwritingListedModel(output, option: "output")
            }
            let model = try ModelsFiles.loadModel(modelPath)
            let (rows, labels, nearLabel) = try ModelsFiles.loadTable(inputPath, for: model)
            let margins = model.margins(for: rows)
            let document = model.document
            let probabilities = margins.map { document.probability(margin: $0) }
            let float32 = model.document.semantics.precision == .float32
            var csv = "margin,prob\n"
            csv.reserveCapacity(margins.count * 32)
            for (margin, probability) in zip(margins, probabilities) {
                csv += float32 ? Float(margin).description : margin.description
                csv += ","
                csv += probability.description
                csv += "\n"
            }
            // What the command says goes to standard error, as with the other commands that write a file.
            let report = environment.printError
            if let output = outputPath {
                try ModelsFiles.write(Data(csv.utf8), to: output)
                report("wrote \(margins.count) scores to \(output)")
            } else {
                environment.standardOutput(csv)
            }
            if let labels, !labels.isEmpty {
                let auc = ClassificationMetrics.auc(labels: labels, scores: probabilities)
                let logLoss = ClassificationMetrics.logLoss(labels: labels, probabilities: probabilities)
                let positives = labels.filter { $0 == 1 }.count
                // With one class only there is no pair to rank: say so rather than print nan.
                let aucText = positives == 0 || positives == labels.count ? "undefined (one class only)" : "\(auc)"
                report("rows \(labels.count), positives \(positives), AUC \(aucText), log loss \(logLoss)")
            } else if let nearLabel {
                report("note: no metrics: no column of the header is named exactly '\(FeatureTable.labelColumn)'; column \(nearLabel), named so but for letter case, spaces or a byte order mark, was read as an extra column (train refuses such a file)")
            }
            return 0
        }
    }
}
