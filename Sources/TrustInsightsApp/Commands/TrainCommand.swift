import FoundationEssentials
import InsightCore
import InsightModel
import InsightTraining

#if canImport(Glibc)
import Glibc
#endif

/// `trust-insights train`: fits a gradient-boosted model on a labelled CSV, picks the medium and high thresholds
/// on the validation CSV, and writes the model document. The summary goes to standard error, so that `--out -`
/// leaves standard output to the model alone.
enum TrainCommand {
    static var spec: CommandSpec {
        let defaults = TrainingParameters()
        let rule = ThresholdRule()
        return CommandSpec(
            name: "train",
            abstract: "Train a gradient-boosted model for binary log loss from labelled CSV files.",
            discussion: """
                Input files have the header 'label,<feature names>', labels 0 or 1, and an empty field, NA or \
                nan for a missing value; they are read as 'models score' reads a feature CSV. The summary goes to \
                standard error. See docs/TRAINING.md for the algorithm and the threshold rule.
                """,
            options: [
                .value("train", "file", help: "Training CSV.", required: true),
                .value("valid", "file", help: "Validation CSV: early stopping, thresholds and metrics.", required: true),
                .value("out", "model.json", help: "Where to write the model; - for standard output.", required: true),
                .value("trees", "n", help: "Maximum boosting rounds.", default: "\(defaults.trees)"),
                .value("max-depth", "d", help: "Maximum tree depth.", default: "\(defaults.maxDepth)"),
                .value("learning-rate", "eta", help: "Shrinkage of each tree.", default: "\(defaults.learningRate)"),
                .value("min-child-weight", "w", help: "Minimum hessian sum in a child.", default: "\(defaults.minChildWeight)"),
                .value("lambda", "l", help: "L2 regularisation of leaf weights.", default: "\(defaults.lambda)"),
                .value("min-split-gain", "g", help: "Minimum loss reduction of a split.", default: "\(defaults.minSplitGain)"),
                .value("subsample", "r", help: "Fraction of rows per tree.", default: "\(defaults.subsample)"),
                .value("colsample", "c", help: "Fraction of features per tree.", default: "\(defaults.columnSample)"),
                .value(
                    "early-stopping-rounds", "k", help: "Stop after k rounds without validation improvement; 0 disables.",
                    default: "\(defaults.earlyStoppingRounds)"),
                .value("seed", "s", help: "Seed of row and column sampling.", default: "\(defaults.seed)"),
                .value("bins", "b", help: "Histogram bins per feature, missing included (2...256).", default: "\(defaults.maxBins)"),
                .value("threads", "t", help: "Threads for histograms; the model does not depend on it.", default: "\(defaults.threads)"),
                .value("high-precision", "p", help: "Validation precision the high threshold must reach.", default: "\(rule.highPrecision)"),
                .value("medium-recall", "r", help: "Validation recall the medium threshold must reach.", default: "\(rule.mediumRecall)"),
                .value("insight", "type", help: "Insight the model answers: isLikelyBeingCoached.", default: InsightType.isLikelyBeingCoached),
                .value(
                    "category", "name", help: "Operation category: payment, account, resourceUse, communication or other.",
                    default: OperationCategory.payment.rawValue),
                .value("version", "version", help: "Model version: whole numbers separated by dots, e.g. 2026.11.1.", default: "0.0.0"),
                .value("created-at", "time", help: "RFC 3339 creation time in UTC (ending in Z) to record (for reproducible output).", default: "now"),
            ],
            body: { arguments, environment in try run(arguments, environment: environment) })
    }

    static func parameters(from arguments: ParsedArguments) throws(CommandLineError) -> (TrainingParameters, ThresholdRule) {
        var parameters = TrainingParameters()
        if let value = try arguments.int("trees", in: 1...100_000) { parameters.trees = value }
        if let value = try arguments.int("max-depth", in: 1...TrainingParameters.maximumDepth) { parameters.maxDepth = value }
        if let value = try arguments.double("learning-rate") {
            guard value > 0, value <= 1 else { throw .usage("The value '\(arguments.value("learning-rate") ?? "\(value)")' is invalid for '--learning-rate': expected (0, 1]") }
            parameters.learningRate = value
        }
        if let value = try arguments.double("min-child-weight", in: 0...1e12) { parameters.minChildWeight = value }
        if let value = try arguments.double("lambda", in: 0...1e12) { parameters.lambda = value }
        if let value = try arguments.double("min-split-gain", in: 0...1e12) { parameters.minSplitGain = value }
        if let value = try arguments.double("subsample") {
            guard value > 0, value <= 1 else { throw .usage("The value '\(arguments.value("subsample") ?? "\(value)")' is invalid for '--subsample': expected (0, 1]") }
            parameters.subsample = value
        }
        if let value = try arguments.double("colsample") {
            guard value > 0, value <= 1 else { throw .usage("The value '\(arguments.value("colsample") ?? "\(value)")' is invalid for '--colsample': expected (0, 1]") }
            parameters.columnSample = value
        }
        if let value = try arguments.int("early-stopping-rounds", in: 0...100_000) { parameters.earlyStoppingRounds = value }
        if let text = arguments.value("seed") {
            guard let seed = UInt64(text) else { throw .usage("The value '\(text)' is invalid for '--seed': expected a non-negative integer") }
            parameters.seed = seed
        }
        if let value = try arguments.int("bins", in: 2...256) { parameters.maxBins = value }
        if let value = try arguments.int("threads", in: 1...64) { parameters.threads = value }
        var rule = ThresholdRule()
        if let value = try target("high-precision", arguments) { rule.highPrecision = value }
        if let value = try target("medium-recall", arguments) { rule.mediumRecall = value }
        return (parameters, rule)
    }

    /// A threshold's precision or recall target, above 0 and at most 1: a target of 0 is met by the lowest score,
    /// which flags every row, the outcome `train` refuses for a model without signal.
    static func target(_ name: String, _ arguments: ParsedArguments) throws(CommandLineError) -> Double? {
        guard let value = try arguments.double(name) else { return nil }
        guard value > 0, value <= 1 else {
            let why = value == 0 ? " (a target of 0 flags every row)" : ""
            throw .usage("The value '\(arguments.value(name) ?? "0")' is invalid for '--\(name)': expected a target above 0 and at most 1\(why)")
        }
        return value
    }

    static func run(_ arguments: ParsedArguments, environment: CommandEnvironment) throws(CommandLineError) -> Int32 {
        let (parameters, rule) = try parameters(from: arguments)
        let trainPath = try arguments.required("train")
        let validPath = try arguments.required("valid")
        let outPath = try arguments.required("out")
        // `-` is standard output, as for `simulate --out`, not a file named `-` in the working folder.
        let toStandardOutput = outPath == "-"
        let metadata = try metadata(from: arguments)
        if !toStandardOutput {
            try OutputFile.requireFolder(of: outPath)
            try OutputFile.refuseOverwriting(inputs: [trainPath, validPath], option: "out", path: outPath, with: "the model")
            try ServiceFiles.refuseOverwriting(
                outPath, option: "out", with: "the model", arguments: arguments, environment: environment)
            try ModelsFiles.refuseOverwritingListedModel(outPath, option: "out") { environment.standardError($0) }
        }
        if OutputFile.isSameFile(trainPath, validPath) {
            environment.standardError(
                "warning: --train and --valid name the same file: the thresholds and the held-out metrics will come from the training data\n")
        }
        let createdAt = try createdAt(arguments.value("created-at"))

        let loader = CSVDatasetLoader()
        let train: Dataset
        let valid: Dataset
        do {
            train = try loader.load(path: trainPath)
            valid = try loader.load(path: validPath).reordered(toMatch: train.featureNames)
        } catch {
            throw .failure(error.description)
        }

        let reporter: TrainingProgressReporter? =
            environment.isInteractive
            ? TrainingProgressReporter { progress in environment.standardError(progressLine(progress)) }
            : nil
        let clock = ContinuousClock()
        let started = clock.now
        let startedCPU = processCPUSeconds()
        let model: TrainedModel
        do {
            model = try GBDTTrainer(parameters: parameters, thresholdRule: rule).train(
                train: train, valid: valid, progress: reporter)
        } catch {
            throw .failure(error.description)
        }
        let elapsed = clock.now - started
        let cpuSeconds = processCPUSeconds() - startedCPU
        if environment.isInteractive { environment.standardError("\n") }

        let document = model.modelDocument(
            ModelExportContext(
                insightType: metadata.insightType, category: metadata.category, version: metadata.version,
                createdAt: createdAt,
                trainingFileName: fileName(trainPath), validationFileName: fileName(validPath),
                toolVersion: RootCommand.version))
        do {
            try ModelValidator.validate(document, file: toStandardOutput ? "the model" : outPath)
        } catch {
            throw .failure("the trained model failed validation: \(error)")
        }
        var data: Data
        do {
            data = try document.jsonData(prettyPrinted: true)
        } catch {
            throw .failure("cannot encode the trained model: \(error)")
        }
        data.append(UInt8(ascii: "\n"))
        if toStandardOutput {
            environment.standardOutput(String(decoding: data, as: UTF8.self))
            // Said now, before a summary that would report the model written.
            if let fault = environment.standardOutputFault() {
                throw .failure("cannot write standard output: \(fault)")
            }
        } else {
            try OutputFile.write(Array(data), to: outPath)
        }
        let metrics = model.validationMetrics
        let kept = model.keepsEveryRound
            ? "every round kept, early stopping off; validation log loss lowest at iteration \(model.lowestValidationLossIteration)"
            : "best iteration \(model.bestIteration) of \(model.roundsTrained) rounds"
        environment.printError(
            "trained \(model.trees.count) trees (\(kept), counted from 0) in \(formatted(seconds: elapsed)) s (cpu \(formatted(cpuSeconds)) s)")
        environment.printError(
            "validation: AUC \(formatted(metrics.auc)), PR-AUC \(formatted(metrics.averagePrecision)), "
                + "log loss \(formatted(metrics.logLoss)) on \(metrics.rows) rows")
        let thresholds = model.thresholds
        environment.printError(
            "thresholds: high \(formatted(thresholds.high)) (precision \(formatted(thresholds.precisionAtHigh)), "
                + "recall \(formatted(thresholds.recallAtHigh))), medium \(formatted(thresholds.medium)) "
                + "(precision \(formatted(thresholds.precisionAtMedium)), recall \(formatted(thresholds.recallAtMedium)))")
        // Said as medium's miss is: otherwise only the metadata told that high flags at a lower precision than
        // asked (pipeline probe, 6 December).
        if thresholds.highChoice == .bestPrecisionFallback {
            environment.printError(
                "warning: no high threshold reaches precision \(formatted(thresholds.rule.highPrecision)) on the validation data; "
                    + "high is the score with the best precision, \(formatted(thresholds.precisionAtHigh)) "
                    + "(more trees or rows, or a lower --high-precision); the metadata says high-rule: bestPrecisionFallback")
        }
        if thresholds.mediumChoice == .recallTargetUnreachable {
            environment.printError(
                "warning: no medium threshold inside (0, high) reaches recall \(formatted(thresholds.rule.mediumRecall)) on the validation data "
                    + "(validation scores that rounded to 0 or 1: check --lambda, --min-child-weight and --learning-rate); "
                    + "the metadata says medium-rule: recallTargetUnreachable")
        }
        // Kept below high by the rule, medium can land on the lowest validation score and flag every row: a
        // `medium` answer then says nothing, which only the precision (the positives' share) hinted (ML probe,
        // 7 December).
        if thresholds.mediumChoice == .belowHigh && thresholds.recallAtMedium == 1 && metrics.rows > 0
            && thresholds.precisionAtMedium == Double(metrics.positives) / Double(metrics.rows) {
            environment.printError(
                "warning: medium flags every validation row (medium-rule: belowHigh: high already reaches the recall "
                    + "target, and medium is the next lower validation score, the lowest); a medium answer would then "
                    + "tell nothing: check with validation data the model separates less perfectly, or a model less "
                    + "sure of itself (a higher --lambda or a lower --learning-rate)")
        }
        environment.printError(toStandardOutput ? "wrote the model to standard output" : "wrote \(outPath)")
        return 0
    }

    static func progressLine(_ progress: TrainingProgress) -> String {
        "\r[\(progress.iteration + 1)/\(progress.totalIterations)] train log loss \(formatted(progress.trainLogLoss)) "
            + "valid log loss \(formatted(progress.validationLogLoss)) valid AUC \(formatted(progress.validationAUC)) "
            + "best iteration \(progress.bestIteration)   "
    }

    /// The model's insight, category and version, checked before any data is read by the rules `models import`,
    /// the manifest and `models verify` apply: a model they would refuse is not worth training.
    static func metadata(
        from arguments: ParsedArguments
    ) throws(CommandLineError) -> (insightType: String, category: String, version: String) {
        let insightType = try arguments.choice("insight", from: [InsightType.isLikelyBeingCoached]) ?? InsightType.isLikelyBeingCoached
        let category =
            try arguments.choice("category", from: OperationCategory.allCases.map(\.rawValue)) ?? OperationCategory.payment.rawValue
        let version = arguments.value("version") ?? "0.0.0"
        do throws(InvalidModelVersion) {
            try ModelVersionSyntax.check(version)
        } catch {
            throw .usage("The value for '--version' is invalid: \(error)")
        }
        return (insightType, category, version)
    }

    /// CPU time of the whole process: on a shared machine a fairer clock than the wall for benchmarks.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    static func createdAt(_ text: String?) throws(CommandLineError) -> String {
        guard let text, text != "now" else { return rfc3339(time(nil)) }
        let capitalized = RFC3339UTC.capitalized(text)
        guard RFC3339UTC.isValid(capitalized) else {
            throw .usage("The value '\(text)' is invalid for '--created-at': expected an RFC 3339 time in UTC (ending in Z) that exists, e.g. 2026-11-21T00:00:00Z")
        }
        return capitalized
    }

    static func rfc3339(_ seconds: time_t) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Four decimals, except a value that they would round to 0, which is printed in full: a threshold of 6.2e-10
    /// flags nearly every row, and `0.0` would hide that it is not 0.
    static func formatted(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let scaled = (value * 10_000).rounded() / 10_000
        // A value rounded onto 0 or 1 from inside is printed whole: a threshold of 0.9999999999999999 shown as 1.0
        // read as one outside (0, 1), which the format forbids (regression probe, 6 December).
        return (scaled == 0 && value != 0) || (scaled == 1 && value != 1) ? "\(value)" : "\(scaled)"
    }

    static func formatted(seconds duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return formatted(Double(seconds) + Double(attoseconds) * 1e-18)
    }
}
