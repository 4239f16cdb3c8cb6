import FoundationEssentials
import InsightCore
import InsightModel

/// `trust-insights models import`: converts a source model to our format, optionally registering it as a
/// candidate in the manifest (which is when it is checked against the category's feature catalogue).
enum ModelsImportCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "import",
            abstract: "Convert an XGBoost or LightGBM model to the trust-insights format.",
            discussion: "XGBoost: save_model JSON or UBJSON (gbtree or dart; binary:logistic or reg:logistic). LightGBM: model text (binary sigmoid:1 or cross_entropy). Feature names come from the source model unless --features is given.",
            options: [
                .value("from", "xgboost|lightgbm", help: "The source library.", required: true),
                .value("insight", "type", help: "Insight the model answers: isLikelyBeingCoached.", required: true),
                .value("category", "name", help: "Operation category: payment, account, resourceUse, communication or other.", required: true),
                .value("version", "version", help: "Model version: whole numbers separated by dots, e.g. 2026.09.1.", required: true),
                .value("out", "file", help: "Where to write the converted model.", required: true),
                .value("features", "a,b,c", help: "Feature names in the source model's column order (spaces around a name are ignored)."),
                .value("medium", "p", help: "Probability threshold for medium.", default: "0.2"),
                .value("high", "p", help: "Probability threshold for high.", default: "0.5"),
                .value("evaluate", "csv", help: "Labelled held-out rows: record AUC, PR AUC, log loss and precision/recall in the model."),
                .flag("best-iteration", help: "XGBoost: keep only the trees up to the best_iteration early stopping recorded (those scikit-learn's predict scores; dart models differ from it by up to about 5e-7, as XGBoost's own predict paths do)."),
                .flag("register", help: "Also add the model to the manifest as a candidate."),
                ModelsCatalogue.manifestOption(help: "The manifest to register in."),
                ModelsCatalogue.option(
                    help: "Feature catalogues to check the model against; a model that does not fit is not written.",
                    default: "none without --register; with it, \(ModelsCatalogue.serviceCatalogue)"),
                ModelsCatalogue.configurationOption,
            ],
            positionals: [PositionalSpec("file", help: "The source model file.")]
        ) { arguments, environment in
            // A `--catalogue` given without `--register` asks for the check all the same: converting without a word
            // a model whose features did not fit read as a pass (models probe, 7 December).
            let checks = arguments.flag("register") || arguments.value("catalogue") != nil
            let check: any ModelSchemaCheck =
                checks ? try ModelsCatalogue.schemaCheck(arguments, environment) : PermissiveSchemaCheck()
            return try run(arguments, environment, schemaCheck: check)
        }
    }

    static func run(
        _ arguments: ParsedArguments, _ environment: CommandEnvironment, schemaCheck: any ModelSchemaCheck
    ) throws(CommandLineError) -> Int32 {
        let source = try arguments.choice("from", from: ["xgboost", "lightgbm"])!
        // LightGBM's save_model already writes the trees up to the best iteration (num_iteration=None), and its file
        // records none: the flag could only ever print that it did nothing.
        if source == "lightgbm", arguments.flag("best-iteration") {
            throw .usage("--best-iteration is for --from xgboost: LightGBM's save_model writes only the trees up to its best iteration already (choose others with its num_iteration)")
        }
        let input = arguments.positionals[0]
        let outPath = try arguments.required("out")
        // The other commands take `-` as standard output; this one prints its summary there, so a file named `-`
        // would be a surprise and the model on standard output would be mixed with the summary.
        guard outPath != "-" else {
            throw .usage("The value '-' is invalid for '--out': models import prints its summary to standard output, so it writes the model to a file only (./- names a file called -)")
        }
        try OutputFile.refuseOverwriting(
            inputs: [input] + (arguments.value("evaluate").map { [$0] } ?? []), option: "out", path: outPath,
            with: "the converted model")
        try ServiceFiles.refuseOverwriting(
            outPath, option: "out", with: "the converted model", arguments: arguments, environment: environment)
        // With --register the manifest being registered in refuses a listed file itself (naming it likewise).
        if !arguments.flag("register") {
            try ModelsFiles.refuseOverwritingListedModel(outPath, option: "out") { environment.standardError($0) }
        }
        let medium = try arguments.double("medium", in: 0...1) ?? 0.2
        let high = try arguments.double("high", in: 0...1) ?? 0.5
        // The rule the model format holds thresholds to (0 < medium <= high < 1), told as the usage error it is.
        guard medium > 0, medium <= high, high < 1 else {
            throw .usage("The values for '--medium' and '--high' are invalid: they must hold 0 < medium <= high < 1")
        }
        // `a, b` names `b`, as a CSV header's spaces around a value are ignored: a name that starts or ends with a
        // space matches no catalogue feature and no header a person would write.
        let features = arguments.value("features").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map { name in
                String(name.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
            }
        }
        let version = try arguments.required("version")
        // A version the manifest would refuse is refused before any work, registered or not: it names the model
        // in requests and is compared numerically.
        do throws(InvalidModelVersion) {
            try ModelVersionSyntax.check(version)
        } catch {
            throw .usage("The value for '--version' is invalid: \(error)")
        }
        // What no manifest would take is refused before any work, registered or not, as `train` refuses it.
        let insightType = try arguments.choice("insight", from: [InsightType.isLikelyBeingCoached])!
        let category = try arguments.choice("category", from: OperationCategory.allCases.map(\.rawValue))!
        var options = ModelImportOptions(
            insightType: insightType, category: category,
            version: version, createdAt: Self.timestamp(), featureNames: features,
            thresholds: RiskThresholds(medium: medium, high: high))
        options.keepsBestIterationOnly = arguments.flag("best-iteration")
        let bytes = [UInt8](try ModelsFiles.read(input))
        var document: ModelDocument
        do {
            switch source {
            case "xgboost": document = try XGBoostImporter.importModel(jsonBytes: bytes, options: options)
            default: document = try LightGBMImporter.importModel(text: String(decoding: bytes, as: UTF8.self), options: options)
            }
        } catch {
            throw .failure("\(input): \(error.description)")
        }
        let compiled: CompiledModel
        do {
            compiled = try CompiledModel(document: document, file: input)
        } catch {
            throw .failure(error.description)
        }
        // Before the held-out evaluation, which would print figures for a model that is then not written. Registering
        // checks again, with the manifest.
        let problems = schemaCheck.problems(with: document, insightType: insightType, category: category)
        guard problems.isEmpty else {
            throw .failure(
                "\(outPath) not written\(arguments.flag("register") ? " nor registered" : ""): the model does not fit the feature schema of \(insightType)/\(category): \(problems.joined(separator: "; "))")
        }
        if let evaluationPath = arguments.value("evaluate") {
            let (rows, labels) = try ModelsFiles.loadRows(evaluationPath, for: compiled)
            guard let labels else { throw .failure("\(evaluationPath): no label column to evaluate against") }
            // Metrics written into the model must mean something: with one class only, AUC and precision are undefined.
            let positives = labels.count { $0 == 1 }
            guard !labels.isEmpty else { throw .failure("\(evaluationPath): no rows to evaluate") }
            guard positives > 0, positives < labels.count else {
                throw .failure("\(evaluationPath): the held-out rows are all \(positives == 0 ? "negatives (label 0)" : "positives (label 1)"): AUC and precision are undefined without both classes")
            }
            let metrics = HeldOutMetrics.measure(compiled, rows: rows, labels: labels)
            document.metadata.heldOutMetrics = metrics
            document.metadata.training.dataDescription = "held-out metrics from \(evaluationPath)"
            environment.print("held-out: \(metrics.rows) rows, AUC \(metrics.auc), PR AUC \(metrics.prAUC), log loss \(metrics.logLoss)")
        }
        let data: Data
        do {
            data = try document.jsonData()
        } catch {
            throw .failure("cannot encode the model: \(error)")
        }
        // Registering checks the model against the manifest and its category's catalogue before anything is written:
        // a refused model leaves no file at --out.
        if arguments.flag("register") {
            try ModelsManifestEditing.registerCandidate(
                modelPath: outPath, modelData: data, document: document,
                manifestPath: try ModelsCatalogue.manifestPath(arguments, environment), schemaCheck: schemaCheck)
        } else {
            try ModelsFiles.write(data, to: outPath)
        }
        environment.print("wrote \(outPath): \(document.trees.count) trees, \(document.featureNames.count) features")
        if let best = document.metadata.training.parameters["best_iteration"] {
            // Booster.predict scores with every tree, scikit-learn's predict only up to best_iteration: say which.
            environment.print(options.keepsBestIterationOnly
                ? "kept the trees up to best_iteration \(best), as early stopping recorded"
                : "note: the file records best_iteration \(best) (early stopping's, or what XGBoost 1.x's train records after any run); all trees were kept (as Booster.predict scores). Add --best-iteration to keep only those up to it (as scikit-learn's predict scores).")
        } else if options.keepsBestIterationOnly {
            environment.print("note: the file records no best_iteration; all trees were kept")
        }
        if let bounded = document.metadata.training.parameters["base_score_bounded_to"] {
            environment.print("note: base_score \(document.metadata.training.parameters["base_score"] ?? "?") was bounded to \(bounded) before its logit, as XGBoost 3.2 predicts; XGBoost 3.1 and earlier predict this model with the unbounded value, so their margins differ")
        }
        if document.metadata.training.parameters["average_output"] != nil {
            environment.print("note: a LightGBM random forest (average_output): the model divides the sum of its \(document.trees.count) trees by \(document.sumDivisor ?? document.trees.count) (sumDivisor), so margins are the averaged score LightGBM's sigmoid receives, not LightGBM's raw_score")
        }
        if document.metadata.training.parameters["objective"] == "binary:logitraw" {
            environment.print("note: binary:logitraw: XGBoost predicts the margin itself; the service takes it as the log-odds, so probabilities are 1 / (1 + exp(-margin)), what binary:logistic gives for the same trees. base_score \(document.metadata.training.parameters["base_score"] ?? "?") is added to the margin as it stands, as XGBoost since 1.4 does")
        }
        if let scale = document.sigmoidScale {
            // A random forest's margin is the averaged score (the note above), not the raw score: said so, not contradicted.
            let margin = document.metadata.training.parameters["average_output"] != nil
                ? "margins are that averaged score" : "margins stay LightGBM's raw score"
            environment.print("note: LightGBM's sigmoid is \(scale) (sigmoidScale): probabilities are 1 / (1 + exp(-\(scale) * margin)), as LightGBM predicts; \(margin), so they are not the log-odds")
        }
        if let recorded = document.metadata.training.parameters[ImportedFeatureNames.sourceNamesParameter],
           let sourceNames = try? JSONDecoder().decode([String].self, from: Data(recorded.utf8)) {
            // The file's names were never checked (only the names given replace them): shown inert.
            let renamed = zip(sourceNames, document.featureNames).filter { $0 != $1 }.map { "\(FeatureNameText.printable($0)) -> \($1)" }
            environment.print("note: --features renamed \(renamed.count) of the file's features, each read from the same column: \(renamed.joined(separator: ", "))")
        }
        if arguments.flag("register") {
            environment.print("registered \(document.metadata.insightType)/\(document.metadata.category) \(document.metadata.version) as candidate")
        }
        return 0
    }

    /// Now as RFC 3339 UTC, second precision.
    static func timestamp() -> String {
        Date.now.formatted(Date.ISO8601FormatStyle())
    }
}
