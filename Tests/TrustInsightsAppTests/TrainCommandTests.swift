import Foundation
import Synchronization
import Testing

@testable import TrustInsightsApp

@Suite struct TrainCommandTests {
    final class Output: Sendable {
        let standardOutput = Mutex("")
        let standardError = Mutex("")

        func environment(interactive: Bool) -> CommandEnvironment {
            CommandEnvironment(
                standardOutput: { text in self.standardOutput.withLock { $0 += text } },
                standardError: { text in self.standardError.withLock { $0 += text } },
                variables: [:], isInteractive: interactive)
        }
    }

    func run(_ arguments: [String], interactive: Bool = false) -> (status: Int32, output: Output) {
        let output = Output()
        let status = CommandLineTool(root: RootCommand.spec).run(
            arguments, environment: output.environment(interactive: interactive))
        return (status, output)
    }

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("train-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A folder holding `train.csv` (600 rows) and `valid.csv` (300), the data most tests train on.
    func dataSet() throws -> (directory: URL, train: URL, valid: URL) {
        let directory = try temporaryDirectory()
        let train = directory.appendingPathComponent("train.csv")
        let valid = directory.appendingPathComponent("valid.csv")
        try writeCSV(train, rows: 600, offset: 0)
        try writeCSV(valid, rows: 300, offset: 3)
        return (directory, train, valid)
    }

    /// A small learnable CSV: label 1 when a > b, a missing now and then.
    func writeCSV(_ url: URL, rows: Int, offset: Int) throws {
        var text = "label,a,b\n"
        for row in 0..<rows {
            let a = Double((row * 37 + offset) % 100) / 100
            let b = Double((row * 61 + offset * 7) % 100) / 100
            let missing = row % 17 == 0
            text += "\(a > b ? 1 : 0),\(missing ? "" : "\(a)"),\(b)\n"
        }
        try Data(text.utf8).write(to: url)
    }

    /// Without a catalogue folder, `simulate` says so, not that another category's file is missing.
    @Test func simulateWithoutACatalogueNamesTheFolderItLookedIn() {
        let (status, output) = run(["simulate", "--category", "account", "--rows", "10", "--out", "/nonexistent/x.csv",
                                    "--config-dir", "/nonexistent-config"])
        #expect(status != 0)
        let errors = output.standardError.withLock { $0 }
        #expect(errors.contains("no feature catalogue at /nonexistent-config/features"), "\(errors)")
        #expect(!errors.contains("payment.json"))
    }

    /// `simulate` writes its rows beside the file and renames them over it once complete: the old file stays whole
    /// until then. It will not write over the catalogue it read, and a standard output it cannot write ends it with
    /// exit 1.
    @Test func simulateReplacesItsOutputWholeAndNeverItsCatalogue() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        try FileManager.default.copyItem(atPath: root + "/config", toPath: folder.path + "/config")
        let out = folder.path + "/sessions.csv"
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: out))
        let (status, output) = run(["simulate", "--category", "payment", "--rows", "50", "--out", out, "--config-dir", folder.path + "/config"])
        #expect(status == 0, "\(output.standardError.withLock { $0 })")
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written.split(separator: "\n").count == 51)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["config", "sessions.csv"])

        let catalogue = folder.path + "/config/features/payment.json"
        let before = try Data(contentsOf: URL(fileURLWithPath: catalogue))
        let refused = run(["simulate", "--category", "payment", "--rows", "5", "--out", folder.path + "/config/features/../features/payment.json",
                           "--config-dir", folder.path + "/config"])
        #expect(refused.status == 64)
        #expect(refused.output.standardError.withLock { $0 }.contains("names the input file"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalogue)) == before)

        let closed = CommandRun(["simulate", "--category", "payment", "--rows", "5", "--out", "-", "--config-dir", folder.path + "/config"],
                                outputFault: "Bad file descriptor")
        #expect(closed.status == 1)
        #expect(closed.errors.contains("cannot write standard output"))
    }

    @Test func missingRequiredOptionIsAUsageError() {
        let (status, output) = run(["train", "--valid", "v.csv", "--out", "m.json"])
        #expect(status == 64)
        #expect(output.standardError.withLock { $0 }.contains("Missing expected argument '--train <file>'"))
    }

    @Test func outOfRangeParametersAreUsageErrors() {
        let base = ["train", "--train", "t.csv", "--valid", "v.csv", "--out", "m.json"]
        for bad in [
            ["--trees", "0"], ["--max-depth", "40"], ["--learning-rate", "2"], ["--subsample", "0"],
            ["--colsample", "abc"], ["--bins", "300"], ["--seed", "-1"], ["--lambda", "-1"],
            ["--high-precision", "1.5"], ["--high-precision", "0"], ["--medium-recall", "0.0"],
            ["--created-at", "yesterday"], ["--no-such-flag", "1"],
            ["--created-at", "2026-13-45T99:99:99Z"], ["--created-at", "2026-02-30T00:00:00Z"],
            ["--created-at", "2026-01-01T00:00:00+02:00"], ["--learning-rate", "0x1p-3"],
        ] {
            let (status, output) = run(base + bad)
            #expect(status == 64, "\(bad)")
            #expect(output.standardError.withLock { $0 }.contains("Error:"))
        }
    }

    /// The message quotes what was typed: `1e-400` reads as 0.0, which the person never wrote (found by a probe).
    @Test func anOutOfRangeFractionIsQuotedAsTyped() {
        let base = ["train", "--train", "t.csv", "--valid", "v.csv", "--out", "m.json"]
        for name in ["learning-rate", "subsample", "colsample"] {
            let (status, output) = run(base + ["--\(name)", "1e-400"])
            #expect(status == 64)
            #expect(output.standardError.withLock { $0 }.contains("The value '1e-400' is invalid for '--\(name)': expected (0, 1]"), "\(name)")
        }
    }

    /// 0 is out of range as much as 1.5 is, so both are told the one range that holds.
    @Test func aThresholdTargetOutsideItsRangeNamesTheRangeThatHolds() {
        let base = ["train", "--train", "t.csv", "--valid", "v.csv", "--out", "m.json"]
        for (name, value) in [("high-precision", "1.1"), ("high-precision", "0"), ("medium-recall", "-0.5"), ("medium-recall", "0.0")] {
            let (status, output) = run(base + ["--\(name)", value])
            #expect(status == 64)
            #expect(output.standardError.withLock { $0 }.contains(
                "The value '\(value)' is invalid for '--\(name)': expected a target above 0 and at most 1"), "\(name) \(value)")
            // The remark on what a target of 0 would do goes with 0 alone.
            #expect(output.standardError.withLock { $0 }.contains("flags every row") == (Double(value) == 0), "\(name) \(value)")
        }
    }

    /// The summary rounds to four decimals, but a threshold that rounds to 0 is printed as it is, not as `0.0`.
    @Test func summaryFiguresRoundToFourDecimalsButNeverToAFalseZero() {
        #expect(TrainCommand.formatted(0.87654) == "0.8765")
        #expect(TrainCommand.formatted(6.2e-10) == "6.2e-10")
        #expect(TrainCommand.formatted(0.00004) == "4e-05")
        #expect(TrainCommand.formatted(Double(1).nextDown) == "0.9999999999999999")
        #expect(TrainCommand.formatted(0.99996) == "0.99996" && TrainCommand.formatted(1) == "1.0")
        #expect(TrainCommand.formatted(0) == "0.0")
        #expect(TrainCommand.formatted(1) == "1.0")
    }

    @Test func unreadableInputIsAFailureNamingTheFile() {
        let (status, output) = run(["train", "--train", "/nonexistent/t.csv", "--valid", "v.csv", "--out", "m.json"])
        #expect(status == 1)
        #expect(output.standardError.withLock { $0 }.contains("cannot read /nonexistent/t.csv: no such file"))
    }

    /// A socket or a folder given as data is named for what it is, as the service's loaders name it, not by the
    /// system's "No such device or address" or "Is a directory".
    @Test func aSocketOrAFolderGivenAsDataIsNamedForWhatItIs() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("train.csv").path
        let socket = try #require(BoundUnixSocket(path: path))
        defer { socket.close() }
        let (status, output) = run(["train", "--train", path, "--valid", path, "--out", folder.appendingPathComponent("m.json").path])
        #expect(status == 1)
        #expect(output.standardError.withLock { $0 }.contains("cannot read \(path): not a regular file (a socket)"))
        let (folderStatus, folderOutput) = run(["train", "--train", folder.path, "--valid", path, "--out", folder.appendingPathComponent("m.json").path])
        #expect(folderStatus == 1)
        #expect(folderOutput.standardError.withLock { $0 }.contains("cannot read \(folder.path): it is a folder, not a file"))
    }

    /// `models import`, the manifest and `models verify` refuse these; a model carrying them could never be
    /// registered, so they are refused before any data is read (the training file here does not exist).
    @Test func refusesMetadataTheRestOfTheToolRefusesBeforeReadingData() {
        let base = ["train", "--train", "/nonexistent/t.csv", "--valid", "/nonexistent/v.csv", "--out", "m.json"]
        let (versionStatus, versionOutput) = run(base + ["--version", "1.x"])
        #expect(versionStatus == 64)
        #expect(versionOutput.standardError.withLock { $0 }.contains("'--version' is invalid: '1.x' is not a model version"))
        for (flag, value, expected) in [
            ("--category", "nosuch", "payment, account, resourceUse, communication, other"),
            ("--insight", "foo", "isLikelyBeingCoached"),
        ] {
            let (status, output) = run(base + [flag, value])
            let errors = output.standardError.withLock { $0 }
            #expect(status == 64, "\(flag)")
            #expect(errors.contains("The value '\(value)' is invalid for '\(flag)'") && errors.contains(expected), "\(errors)")
            #expect(!errors.contains("cannot read"))
        }
    }

    @Test func refusesAFeatureNamedLabelNamingTheFileAndColumn() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let train = directory.appendingPathComponent("train.csv")
        try Data("label,a,label\n0,1,0\n1,2,1\n".utf8).write(to: train)
        let (status, output) = run([
            "train", "--train", train.path, "--valid", train.path, "--out", directory.appendingPathComponent("m.json").path,
        ])
        #expect(status == 1)
        #expect(
            output.standardError.withLock { $0 }.contains(
                "\(train.path): column 3 of the header is named 'label': a feature may not be named 'label'"))
    }

    /// One score for every row would put `high` at that score and flag every row: no model is written.
    @Test func refusesToWriteAModelWhoseTreesAreAllLeaves() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let train = directory.appendingPathComponent("train.csv")
        let out = directory.appendingPathComponent("model.json")
        try Data(("label,a,b\n" + (0..<200).map { "\($0 % 3 == 0 ? 1 : 0),1,1\n" }.joined()).utf8).write(to: train)
        let (status, output) = run(["train", "--train", train.path, "--valid", train.path, "--out", out.path, "--trees", "20"])
        #expect(status == 1)
        let text = output.standardError.withLock { $0 }
        #expect(text.contains("no feature separates the labels: every tree is a single leaf"))
        #expect(text.contains("warning: --train and --valid name the same file"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A slip in `--out` must not replace the data with the model.
    @Test func refusesAnOutputThatIsOneOfTheInputs() throws {
        let (directory, train, valid) = try dataSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try Data(contentsOf: valid)
        for out in [valid.path, directory.path + "/./valid.csv"] {
            let (status, output) = run(["train", "--train", train.path, "--valid", valid.path, "--out", out, "--trees", "5"])
            #expect(status == 64)
            #expect(output.standardError.withLock { $0 }.contains("'--out' names the input file"))
        }
        #expect(try Data(contentsOf: valid) == before)
    }

    /// A model the manifest beside `--out` lists is pinned by its SHA-256: training over it would take it out of
    /// service at the next start or reload, so it is refused before any training and the file is left as it was.
    @Test func refusesAnOutputTheManifestBesideItLists() throws {
        let (directory, train, valid) = try dataSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let listed = directory.appendingPathComponent("payment-2026.09.1.json")
        try Data("listed model".utf8).write(to: listed)
        try Data(#"{"formatVersion": 1, "models": [{"insightType": "isLikelyBeingCoached", "category": "payment", "version": "2026.09.1", "status": "prior", "path": "payment-2026.09.1.json", "sha256": "\#(String(repeating: "0", count: 64))"}]}"#.utf8)
            .write(to: directory.appendingPathComponent("manifest.json"))
        let (status, output) = run(["train", "--train", train.path, "--valid", valid.path, "--out", listed.path, "--trees", "5"])
        #expect(status == 1)
        #expect(output.standardError.withLock { $0 }.contains("isLikelyBeingCoached/payment 2026.09.1 (prior)"),
                "\(output.standardError.withLock { $0 })")
        #expect(try Data(contentsOf: listed) == Data("listed model".utf8))
    }

    /// A `manifest.json` beside the output that cannot be read or parsed is named in a warning, read no further than
    /// the service would (16 MiB), and the model is still written: `train` read a 2 GiB one whole and said nothing
    /// (file-reading probe, 7 December).
    @Test func aManifestBesideTheOutputThatCannotBeCheckedIsNamed() throws {
        let (directory, train, valid) = try dataSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = directory.appendingPathComponent("manifest.json")
        let out = directory.appendingPathComponent("model.json")
        #expect(FileManager.default.createFile(atPath: manifest.path, contents: Data()))
        let handle = try FileHandle(forWritingTo: manifest)
        try handle.truncate(atOffset: UInt64(16 << 20) + 1)
        try handle.close()
        let (status, output) = run(["train", "--train", train.path, "--valid", valid.path, "--out", out.path, "--trees", "5"])
        #expect(status == 0)
        let errors = output.standardError.withLock { $0 }
        #expect(errors.contains("warning: cannot check whether \(manifest.path) lists --out \(out.path): larger than 16 MiB, more than a file of this kind holds; the service would refuse that manifest too"), "\(errors)")
        #expect(FileManager.default.fileExists(atPath: out.path))
        try Data("[1]".utf8).write(to: manifest)
        let (again, second) = run(["train", "--train", train.path, "--valid", valid.path, "--out", out.path, "--trees", "5"])
        #expect(again == 0)
        #expect(second.standardError.withLock { $0 }.contains("warning: cannot check whether \(manifest.path) lists --out \(out.path): not a valid manifest"))
        // Well-formed, but refused by the service: named too (regression probe, 7 December).
        try Data(#"{"formatVersion": 2, "models": []}"#.utf8).write(to: manifest)
        let (third, refused) = run(["train", "--train", train.path, "--valid", valid.path, "--out", out.path, "--trees", "5"])
        #expect(third == 0)
        #expect(refused.standardError.withLock { $0 }.contains("lists --out \(out.path): unsupported manifest formatVersion 2; the service would refuse that manifest too"),
                "\(refused.standardError.withLock { $0 })")
        // A manifest the service refuses protects nothing, whatever it lists: warned of, the model written.
        try Data(#"{"formatVersion": 2, "models": [{"insightType": "isLikelyBeingCoached", "category": "payment", "version": "1.0", "status": "candidate", "path": "model.json"}]}"#.utf8)
            .write(to: manifest)
        let (listedInRefused, _) = run(["train", "--train", train.path, "--valid", valid.path, "--out", out.path, "--trees", "5"])
        #expect(listedInRefused == 0)
        // An entry without a pin still lists the file, and the refusal says what writing over it would do.
        try Data(#"{"formatVersion": 1, "models": [{"insightType": "isLikelyBeingCoached", "category": "payment", "version": "1.0", "status": "candidate", "path": "model.json"}]}"#.utf8)
            .write(to: manifest)
        let (fourth, unpinned) = run(["train", "--train", train.path, "--valid", valid.path, "--out", out.path, "--trees", "5"])
        #expect(fourth == 1)
        #expect(unpinned.standardError.withLock { $0 }.contains("(candidate), which has no SHA-256 pinned: writing over it would replace the model the service loads from it"),
                "\(unpinned.standardError.withLock { $0 })")
    }

    @Test func trainsAndWritesAModelDocument() throws {
        let (directory, train, valid) = try dataSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("model.json")
        let (status, output) = run([
            "train", "--train", train.path, "--valid", valid.path, "--out", out.path, "--trees", "10",
            "--max-depth", "3", "--version", "2026.11.1", "--created-at", "2026-11-21T00:00:00Z",
        ])
        #expect(status == 0, "\(output.standardError.withLock { $0 })")
        let text = String(decoding: try Data(contentsOf: out), as: UTF8.self)
        #expect(text.contains("\"format\" : \"trust-insights.gbdt\""))
        #expect(text.contains("\"version\" : \"2026.11.1\""))
        #expect(text.contains("\"train-file\" : \"train.csv\""))
        // The summary goes to standard error, so `--out /dev/stdout` leaves standard output to the model alone.
        #expect(output.standardOutput.withLock { $0 }.isEmpty)
        let summary = output.standardError.withLock { $0 }
        #expect(summary.hasPrefix("trained "))
        #expect(summary.contains("counted from 0"))
        #expect(summary.contains("\nvalidation: AUC"))
        #expect(summary.hasSuffix("wrote \(out.path)\n"))
        // Not a terminal: no progress line.
        #expect(!summary.contains("\r"))
    }

    /// `--out -` is standard output, as `simulate --out -` is, not a file named `-` in the working folder.
    @Test func outDashWritesTheModelToStandardOutput() throws {
        let (directory, train, valid) = try dataSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = FileManager.default.fileExists(atPath: "-")
        let (status, output) = run([
            "train", "--train", train.path, "--valid", valid.path, "--out", "-", "--trees", "5", "--max-depth", "2",
            "--created-at", "2026-11-21T00:00:00Z",
        ])
        #expect(status == 0, "\(output.standardError.withLock { $0 })")
        let model = output.standardOutput.withLock { $0 }
        #expect(model.hasPrefix("{") && model.contains("\"format\" : \"trust-insights.gbdt\"") && model.hasSuffix("}\n"))
        #expect(output.standardError.withLock { $0 }.hasSuffix("wrote the model to standard output\n"))
        #expect(FileManager.default.fileExists(atPath: "-") == before)
    }

    @Test func drawsAProgressLineOnlyOnATerminal() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let train = directory.appendingPathComponent("train.csv")
        let valid = directory.appendingPathComponent("valid.csv")
        try writeCSV(train, rows: 400, offset: 1)
        try writeCSV(valid, rows: 200, offset: 5)
        let (status, output) = run(
            [
                "train", "--train", train.path, "--valid", valid.path, "--out",
                directory.appendingPathComponent("model.json").path, "--trees", "5", "--early-stopping-rounds", "0",
            ], interactive: true)
        #expect(status == 0)
        let progress = output.standardError.withLock { $0 }
        #expect(progress.contains("\r[5/5] train log loss"))
        #expect(progress.contains("valid AUC"))
        // The round counter counts from 1; the best iteration, in the progress line as in the summary and the model
        // file (XGBoost's best_iteration), from 0. With early stopping off, the best of 5 rounds is iteration 4.
        #expect(progress.contains("best iteration 4 "))
        #expect(progress.contains("trained 5 trees (every round kept, early stopping off; validation log loss lowest at iteration 4, counted from 0)"))
    }

    /// Without early stopping XGBoost records no best iteration, and neither does the model: every round is kept,
    /// and the round where the validation loss was lowest is what is worth knowing (here the first, with a
    /// learning rate so large that the loss only rises after it).
    @Test func withoutEarlyStoppingTheModelRecordsTheLowestLossRoundNotABestIteration() throws {
        let (directory, train, valid) = try dataSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("model.json")
        let (status, output) = run([
            "train", "--train", train.path, "--valid", valid.path, "--out", out.path, "--trees", "30",
            "--learning-rate", "1", "--max-depth", "6", "--min-child-weight", "0", "--lambda", "0", "--early-stopping-rounds", "0",
        ])
        let summary = output.standardError.withLock { $0 }
        #expect(status == 0, "\(summary)")
        let text = String(decoding: try Data(contentsOf: out), as: UTF8.self)
        #expect(!text.contains("\"best-iteration\""))
        let recorded = try #require(text.firstMatch(of: #/"lowest-validation-loss-iteration" : "(\d+)"/#)?.output.1)
        #expect(summary.contains("trained 30 trees (every round kept, early stopping off; validation log loss lowest at iteration \(recorded), counted from 0)"), "\(summary)")
        // With early stopping, the best iteration is recorded as before, and the lowest-loss round is not repeated.
        let stopped = run(["train", "--train", train.path, "--valid", valid.path, "--out", out.path, "--trees", "30", "--early-stopping-rounds", "5"])
        #expect(stopped.status == 0)
        let stoppedText = String(decoding: try Data(contentsOf: out), as: UTF8.self)
        #expect(stoppedText.contains("\"best-iteration\"") && !stoppedText.contains("lowest-validation-loss-iteration"))
    }

    /// The models folder's manifest is no place for a model, a data set or scores: written over, it would take every
    /// model it lists out of service. `train`, `simulate` and `models score` refuse it, whatever its name, and
    /// `simulate` refuses a model the manifest pins, as `train` does.
    @Test func theManifestAndThePinnedModelsAreNoOutput() throws {
        let (directory, train, valid) = try dataSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let models = directory.path + "/models"
        try FileManager.default.copyItem(atPath: root + "/models", toPath: models)
        let manifest = models + "/manifest.json"
        let renamed = directory.path + "/registry.json"
        try FileManager.default.copyItem(atPath: manifest, toPath: renamed)
        let before = try Data(contentsOf: URL(fileURLWithPath: manifest))
        for target in [manifest, renamed] {
            let trained = run(["train", "--train", train.path, "--valid", valid.path, "--out", target, "--trees", "3"])
            #expect(trained.status == 1)
            #expect(trained.output.standardError.withLock { $0 }.contains("is a models manifest"), "\(trained.output.standardError.withLock { $0 })")
            let simulated = CommandRun(["simulate", "--category", "payment", "--rows", "5", "--out", target, "--config-dir", root + "/config"])
            #expect(simulated.status == 1 && simulated.errors.contains("is a models manifest"), "\(simulated.errors)")
            let scored = CommandRun(["models", "score", "--model", models + "/payment-2026.11.1.json", "--input", train.path, "--output", target])
            #expect(scored.status == 1 && scored.errors.contains("is a models manifest"), "\(scored.errors)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: manifest)) == before)
        let pinned = models + "/payment-2026.09.1.json"
        let pinnedBefore = try Data(contentsOf: URL(fileURLWithPath: pinned))
        let simulated = CommandRun(["simulate", "--category", "payment", "--rows", "5", "--out", pinned, "--config-dir", root + "/config"])
        #expect(simulated.status == 1 && simulated.errors.contains("which pins its SHA-256"), "\(simulated.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: pinned)) == pinnedBefore)
    }

    /// Every file the service reads is no output of the commands that write files of their own (exit 64): the
    /// configuration file, every file of the configuration folder and its `features/`, the models folder's manifest
    /// and the models it lists, found as `serve` would find them. `simulate --out config/velocity.json` replaced the
    /// velocity settings with rows and the next start failed (pipeline probe, 6 December). A new file in the
    /// models folder is still fine: that is where a new model goes.
    @Test func theServicesFilesAreNoOutputOfAnyCommand() throws {
        let (directory, train, valid) = try dataSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let config = directory.path + "/service-config", models = directory.path + "/service-models"
        try FileManager.default.copyItem(atPath: root + "/config", toPath: config)
        try FileManager.default.copyItem(atPath: root + "/models", toPath: models)
        let variables = [
            "TRUST_INSIGHTS_CONFIG": config + "/default.json", "TRUST_INSIGHTS_CONFIG_DIR": config,
            "TRUST_INSIGHTS_MODELS_DIR": models,
        ]
        let model = models + "/payment-2026.11.1.json"
        try Data("margin,prob\n".utf8).write(to: URL(fileURLWithPath: directory.path + "/notes.txt"))
        try FileManager.default.copyItem(atPath: model, toPath: directory.path + "/model.json")
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/link.json", withDestinationPath: config + "/rate-limits.json")
        let targets = [
            config + "/velocity.json", config + "/rate-limits.json", config + "/default.json",
            config + "/features/../features/other.json", models + "/manifest.json", model,
            models + "/../service-models/account-2026.11.1.json", directory.path + "/link.json",
        ]
        let before = try targets.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        for target in targets {
            let runs = [
                CommandRun(["simulate", "--category", "payment", "--rows", "5", "--out", target, "--config-dir", root + "/config"], variables: variables),
                CommandRun(["train", "--train", train.path, "--valid", valid.path, "--out", target, "--trees", "3"], variables: variables),
                CommandRun(["models", "score", "--model", directory.path + "/model.json", "--input", directory.path + "/notes.txt", "--output", target], variables: variables),
            ]
            for run in runs {
                #expect(run.status == 64, "\(target): \(run.errors)")
                #expect(run.errors.contains("which the service reads"), "\(target): \(run.errors)")
            }
        }
        #expect(try targets.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        // A new model beside the shipped ones, and writing it again, are what the folder is for.
        for _ in 0..<2 {
            let trained = CommandRun(
                ["train", "--train", train.path, "--valid", valid.path, "--out", models + "/payment-2026.12.1.json", "--trees", "3"],
                variables: variables)
            #expect(trained.status == 0, "\(trained.errors)")
        }
        // A configuration file naming the folders, with a setting `serve` would refuse beside it (the
        // `TRUST_INSIGHTS_PORT=tcp://...` of Kubernetes' service links): the folders it names are kept all the same.
        var settings = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config + "/default.json"))) as? [String: Any])
        settings["configDir"] = config
        settings["modelsDir"] = models
        settings["port"] = -5
        try JSONSerialization.data(withJSONObject: settings).write(to: URL(fileURLWithPath: directory.path + "/conf.json"))
        for target in [config + "/rate-limits.json", model] {
            let refused = CommandRun(
                ["simulate", "--category", "payment", "--rows", "5", "--out", target, "--config-dir", root + "/config"],
                variables: ["TRUST_INSIGHTS_CONFIG": directory.path + "/conf.json", "TRUST_INSIGHTS_PORT": "tcp://10.0.0.1:80"])
            #expect(refused.status == 64 && refused.errors.contains("which the service reads"), "\(target): \(refused.errors)")
        }
        // Member names written with escapes, which JSON reads as the names themselves.
        try Data(#"{"config\u0044ir": "\#(config)", "models\u0044ir": "\#(models)"}"#.utf8)
            .write(to: URL(fileURLWithPath: directory.path + "/escaped.json"))
        // And in a file JSON does not read: the name given twice, the file cut short.
        try Data(#"{"configDir": "./config", "config\u0044ir": "\#(config)", "models\u0044ir": "\#(models)", "po"#.utf8)
            .write(to: URL(fileURLWithPath: directory.path + "/escaped-cut.json"))
        for file in ["escaped.json", "escaped-cut.json"] {
            let escaped = CommandRun(
                ["simulate", "--category", "payment", "--rows", "5", "--out", config + "/rate-limits.json", "--config-dir", root + "/config"],
                variables: ["TRUST_INSIGHTS_CONFIG": directory.path + "/" + file])
            #expect(escaped.status == 64 && escaped.errors.contains("which the service reads"), "\(file): \(escaped.errors)")
        }
        // A manifest that does not parse (being edited): every file beside it is kept.
        let manifest = try Data(contentsOf: URL(fileURLWithPath: models + "/manifest.json"))
        try Data("{ broken".utf8).write(to: URL(fileURLWithPath: models + "/manifest.json"))
        let mended = CommandRun(
            ["train", "--train", train.path, "--valid", valid.path, "--out", models + "/account-2026.11.1.json", "--trees", "3"],
            variables: variables)
        #expect(mended.status == 64 && mended.errors.contains("which the service reads"), "\(mended.errors)")
        try manifest.write(to: URL(fileURLWithPath: models + "/manifest.json"))
        #expect(try targets.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        // With the configuration file broken, the folders it would have named are unknown: the built-in ones and
        // the file itself are still kept.
        let broken = CommandRun(
            ["simulate", "--category", "payment", "--rows", "5", "--out", directory.path + "/broken.json", "--config-dir", root + "/config"],
            variables: ["TRUST_INSIGHTS_CONFIG": directory.path + "/broken.json"])
        #expect(broken.status == 0, "a configuration file that does not exist yet names no service file: \(broken.errors)")
        let kept = CommandRun(
            ["simulate", "--category", "payment", "--rows", "5", "--out", directory.path + "/broken.json", "--config-dir", root + "/config"],
            variables: ["TRUST_INSIGHTS_CONFIG": directory.path + "/broken.json"])
        #expect(kept.status == 64 && kept.errors.contains("which the service reads"), "\(kept.errors)")
    }

    /// The data folder is the service's too: `train --out data/trust-insights.sqlite` replaced every tenant, key,
    /// evaluation and label with a model, and a signing key could be written over likewise, where `export` and
    /// `report` refused both (training probe, 6 December). Every file there, the database's companions whether they
    /// exist or not, and any name in the signing keys' folder, for the folder named by the variable and by the
    /// configuration file alike.
    @Test func theDataFolderIsNoOutputOfAnyCommand() throws {
        let (directory, train, valid) = try dataSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let data = directory.path + "/service-data", named = directory.path + "/named-data"
        for folder in [data, named] {
            try FileManager.default.createDirectory(atPath: folder + "/signing-keys", withIntermediateDirectories: true)
            try Data("SQLite format 3\u{0}".utf8).write(to: URL(fileURLWithPath: folder + "/trust-insights.sqlite"))
            try Data("key".utf8).write(to: URL(fileURLWithPath: folder + "/signing-keys/es256-1-0000000000000000.pem"))
        }
        try Data(#"{"dataDir": "\#(named)"}"#.utf8).write(to: URL(fileURLWithPath: directory.path + "/conf.json"))
        try Data("margin,prob\n".utf8).write(to: URL(fileURLWithPath: directory.path + "/notes.txt"))
        try FileManager.default.copyItem(atPath: root + "/models/payment-2026.11.1.json", toPath: directory.path + "/model.json")
        let variables = ["TRUST_INSIGHTS_DATA_DIR": data, "TRUST_INSIGHTS_CONFIG": directory.path + "/conf.json"]
        let targets = [
            (data + "/trust-insights.sqlite", "in the service's data folder"),
            (named + "/trust-insights.sqlite", "in the service's data folder"),
            (data + "/../service-data/trust-insights.sqlite-wal", "SQLite keeps beside it"),
            (named + "/trust-insights.sqlite-journal", "SQLite keeps beside it"),
            (data + "/signing-keys/es256-1-0000000000000000.pem", "which the service reads whole"),
            (named + "/signing-keys/new.json", "which the service reads whole"),
        ]
        let before = try [data, named].flatMap { folder in
            try ["/trust-insights.sqlite", "/signing-keys/es256-1-0000000000000000.pem"].map {
                try Data(contentsOf: URL(fileURLWithPath: folder + $0))
            }
        }
        for (target, said) in targets {
            let runs = [
                CommandRun(["simulate", "--category", "payment", "--rows", "5", "--out", target, "--config-dir", root + "/config"], variables: variables),
                CommandRun(["train", "--train", train.path, "--valid", valid.path, "--out", target, "--trees", "3"], variables: variables),
                CommandRun(["models", "score", "--model", directory.path + "/model.json", "--input", directory.path + "/notes.txt", "--output", target], variables: variables),
                CommandRun(["models", "import", "--from", "xgboost", directory.path + "/absent.json", "--insight", "isLikelyBeingCoached",
                            "--category", "payment", "--version", "2026.12.9", "--out", target], variables: variables),
            ]
            for run in runs {
                #expect(run.status == 64 && run.errors.contains(said), "\(target): \(run.errors)")
            }
        }
        let after = try [data, named].flatMap { folder in
            try ["/trust-insights.sqlite", "/signing-keys/es256-1-0000000000000000.pem"].map {
                try Data(contentsOf: URL(fileURLWithPath: folder + $0))
            }
        }
        #expect(after == before)
        #expect(!FileManager.default.fileExists(atPath: data + "/trust-insights.sqlite-wal"))
        #expect(!FileManager.default.fileExists(atPath: named + "/signing-keys/new.json"))
        // A data folder whose signing keys' folder is still to come (made by `keys create`, before the first start):
        // a file of that name would keep the service from starting there (regression probe, 6 December).
        try FileManager.default.removeItem(atPath: named + "/signing-keys")
        for run in [
            CommandRun(["simulate", "--category", "payment", "--rows", "5", "--out", named + "/signing-keys", "--config-dir", root + "/config"], variables: variables),
            CommandRun(["train", "--train", train.path, "--valid", valid.path, "--out", named + "/./signing-keys", "--trees", "3"], variables: variables),
        ] {
            #expect(run.status == 64 && run.errors.contains("the signing keys' folder"), "\(run.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: named + "/signing-keys"))
        // Beside the data folder, a file of one's own is still fine.
        let beside = CommandRun(
            ["train", "--train", train.path, "--valid", valid.path, "--out", directory.path + "/trained.json", "--trees", "3"],
            variables: variables)
        #expect(beside.status == 0, "\(beside.errors)")
    }

    /// A `high` that misses its precision target is said on standard error, as a `medium` that misses its recall
    /// target is; before, only the metadata's `high-rule` told (pipeline probe, 6 December).
    @Test func aHighThresholdBelowItsPrecisionTargetIsWarnedOf() throws {
        let (directory, train, valid) = try dataSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("model.json")
        let missed = run(["train", "--train", train.path, "--valid", valid.path, "--out", out.path, "--trees", "3",
                          "--high-precision", "1"])
        #expect(missed.status == 0, "\(missed.output.standardError.withLock { $0 })")
        let text = missed.output.standardError.withLock { $0 }
        let model = String(decoding: try Data(contentsOf: out), as: UTF8.self)
        #expect(model.contains("bestPrecisionFallback"))
        #expect(text.contains("warning: no high threshold reaches precision 1.0 on the validation data; high is the score with the best precision"), "\(text)")
        let met = run(["train", "--train", train.path, "--valid", valid.path, "--out", out.path, "--trees", "3",
                       "--high-precision", "0.5"])
        #expect(met.status == 0)
        #expect(!met.output.standardError.withLock { $0 }.contains("no high threshold reaches"))
    }

    /// Data the model separates perfectly puts high at the positives' scores and, kept below it, medium at the
    /// lowest score: every validation row is then at least medium, which is said (ML probe, 7 December).
    @Test func aMediumThresholdThatFlagsEveryValidationRowIsWarnedOf() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("train-separable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = "label,a\n"
        for row in 0..<400 {
            let value = Double(row) / 400
            text += "\(value > 0.5 ? 1 : 0),\(value)\n"
        }
        let data = directory.appendingPathComponent("sep.csv")
        try Data(text.utf8).write(to: data)
        let out = directory.appendingPathComponent("model.json")
        let separated = run(["train", "--train", data.path, "--valid", data.path, "--out", out.path, "--lambda", "0",
                             "--min-child-weight", "0", "--learning-rate", "1", "--trees", "50", "--early-stopping-rounds", "0"])
        let errors = separated.output.standardError.withLock { $0 }
        #expect(separated.status == 0, "\(errors)")
        #expect(errors.contains("warning: medium flags every validation row (medium-rule: belowHigh"), "\(errors)")
        // Data it does not separate perfectly gets no such warning.
        let (mixed, train, valid) = try dataSet()
        defer { try? FileManager.default.removeItem(at: mixed) }
        let usual = run(["train", "--train", train.path, "--valid", valid.path, "--out", out.path, "--trees", "3"])
        #expect(usual.status == 0)
        #expect(!usual.output.standardError.withLock { $0 }.contains("flags every validation row"))
    }

    /// An output name is checked against the file system's limit before any work, and the hidden temporary name
    /// beside it never makes a name that fits too long (one of 248 to 255 bytes could not be written at all).
    @Test func outputNamesUpToTheLimitAreWrittenAndLongerOnesRefusedAtOnce() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let longest = folder.path + "/" + String(repeating: "b", count: 255)
        for _ in 0..<2 {
            let written = CommandRun(["simulate", "--category", "payment", "--rows", "5", "--out", longest, "--config-dir", root + "/config"])
            #expect(written.status == 0, "\(written.errors)")
        }
        let tooLong = CommandRun(
            ["simulate", "--category", "payment", "--rows", "100000000", "--out", longest + "b", "--config-dir", root + "/config"])
        #expect(tooLong.status == 1 && tooLong.errors.contains("cannot write \(longest + "b"): file name too long"), "\(tooLong.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [String(repeating: "b", count: 255)])
    }

    /// Every line of an error message starts `Error: `: a manifest's category holding a line break printed a line
    /// of its own choosing into the stream `serve` logs JSON to.
    @Test func everyLineOfAnErrorMessageIsMarkedAsOne() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.path + "/manifest.json"
        try Data(#"{"formatVersion": 1, "models": [{"insightType": "isLikelyBeingCoached", "category": "pay\n{\"level\":\"info\",\"event\":\"forged\"}", "version": "1.0", "status": "current", "path": "m.json"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: manifest))
        let verified = CommandRun(["models", "verify", "--manifest", manifest])
        #expect(verified.status == 1)
        let lines = verified.errors.split(separator: "\n").filter { !$0.hasPrefix("warning:") }
        #expect(lines.count == 3 && lines.allSatisfy { $0.hasPrefix("Error: ") }, "\(verified.errors)")
        #expect(verified.errors.contains("Error: {\"level\":\"info\",\"event\":\"forged\"} 1.0): unknown operation category 'pay"))
        // "\r\n" is one Character in Swift: a split on "\n" alone left its line unmarked.
        let crlf = CommandRun(["serve", "--config", "x\r\n{\"level\":\"error\",\"event\":\"forged\"}"])
        #expect(crlf.status == 2)
        let crlfLines = crlf.errors.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("{\"time\"") }
        #expect(crlfLines.count == 2 && crlfLines.allSatisfy { $0.hasPrefix("Error: ") }, "\(crlf.errors)")
        // `models list` shows a manifest's text on one line, its controls escaped.
        let listed = CommandRun(["models", "list", "--manifest", manifest])
        #expect(!listed.output.contains("\n{\"level\"") && listed.output.contains("pay\\u{A}{\"level\""), "\(listed.output)")
    }

    /// A model that could not reach standard output is not reported written.
    @Test func aStandardOutputThatCannotBeWrittenIsSaidBeforeAnySummary() throws {
        let (directory, train, valid) = try dataSet()
        defer { try? FileManager.default.removeItem(at: directory) }
        let closed = CommandRun(["train", "--train", train.path, "--valid", valid.path, "--out", "-", "--trees", "3"],
                                outputFault: "No space left on device")
        #expect(closed.status == 1)
        #expect(closed.errors.contains("cannot write standard output: No space left on device"))
        #expect(!closed.errors.contains("wrote the model"))
    }
}
