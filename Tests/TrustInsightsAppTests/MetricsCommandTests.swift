import Foundation
import Synchronization
import Testing
import InsightCore
@testable import InsightStore

@testable import TrustInsightsApp

/// `export metrics` and `report` against a data folder written through the store, as the service writes it.
@Suite final class MetricsCommandTests {
    static let repositoryRoot = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    final class Output: Sendable {
        let standardOutput = Mutex("")
        let standardError = Mutex("")
        var environment: CommandEnvironment {
            CommandEnvironment(
                standardOutput: { text in self.standardOutput.withLock { $0 += text } },
                standardError: { text in self.standardError.withLock { $0 += text } }, variables: [:], isInteractive: false)
        }
    }

    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "metrics-command-" + UUID().uuidString
        let store = try SQLiteStore(directory: directory + "/data")
        let tenant = TenantID("acme")!
        let now = Clock.nowMilliseconds()
        // A tenant exists once it has a key, as with the service.
        _ = try KeyIssuer(store: store).issue(tenant: tenant, role: .analyst, environment: .production, now: now)
        // 30 evaluations today: 20 unknown (2.x), 10 high; every high one reported and labelled fraud, 8 of them
        // labelled legitimate among the unknown ones.
        for index in 0..<30 {
            let outcome: RiskLevel = index < 20 ? .unknown : .high
            try store.recordAndWait(EvaluationRecord(
                evaluationID: "e\(index)", tenant: tenant, environment: .production, keyID: "k", category: .payment, createdAt: now - 1000,
                account: nil, device: nil, counterparty: nil,
                insights: [.init(insightID: "i\(index)", position: 0, insightType: "isLikelyBeingCoached", modelVersion: index % 2 == 0 ? "2026.11.1" : "2026.09.1", outcome: outcome, error: nil)]))
            _ = try store.recordConsumptionAndWait(ConsumptionRecord(
                evaluationID: "e\(index)", tenant: tenant, report: ConsumptionReport(status: .usedIncreasedFriction, insightIDsUsed: []),
                receivedAt: now, late: false))
            if index >= 12 {
                try store.inLabelTransactionAndWait { transaction in
                    try transaction.appendLabels([LabelVersion(
                        insightID: "i\(index)", tenant: tenant,
                        content: LabelContent(verdict: outcome == .high ? .confirmedFraud : .confirmedLegitimate, fraudType: .other,
                                              occurredOn: Timestamp.day(milliseconds: now), amountBand: nil), receivedAt: now)])
                }
            }
        }
        store.checkpoint()
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// One integer the database in `data/` answers, read on a read-only connection of its own.
    func integer(_ sql: String) throws -> Int {
        let connection = try SQLiteConnection(path: directory + "/data/" + SQLiteStore.fileName, mode: .readOnly)
        let statement = try connection.statement(sql)
        _ = try statement.step()
        defer { statement.reset() }
        return statement.int(0)
    }

    func run(_ arguments: [String]) -> (status: Int32, output: Output) {
        let output = Output()
        let status = CommandLineTool(root: RootCommand.spec).run(
            arguments + ["--data-dir", directory + "/data", "--config", Self.repositoryRoot + "/config/default.json"], environment: output.environment)
        return (status, output)
    }

    @Test func exportsJSONWithTheServiceFigures() throws {
        let (status, output) = run(["export", "metrics", "--tenant", "acme", "--metrics-suppression-k", "0"])
        #expect(status == 0, "\(output.standardError.withLock { $0 })")
        let text = output.standardOutput.withLock { $0 }
        #expect(text.hasSuffix("}\n"), "standard output ends its one line")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let group = try #require((body["groups"] as? [[String: Any]])?.first)
        #expect(group["evaluations"] as? Int == 30)
        #expect(group["labels"] as? [String: Int] == ["confirmedFraud": 10, "confirmedLegitimate": 8])
        #expect((group["recall"] as? [String: Double])?["high"] == 1)
        #expect(body["suppression"] as? [String: Int] == ["k": 0])
    }

    @Test func exportsCSVToAFileWithSuppression() throws {
        let file = directory + "/metrics.csv"
        let (status, output) = run(["export", "metrics", "--tenant", "acme", "--format", "csv", "--group-by", "modelVersion", "--out", file])
        #expect(status == 0, "\(output.standardError.withLock { $0 })")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\r\n")
        #expect(lines.first?.hasPrefix("day,modelVersion,mature,evaluations,") == true)
        // 15 evaluations per version (k = 10): published; the 5 labelled-fraud of each version are withheld.
        let row = try #require(lines.first { $0.hasPrefix("all,2026.09.1,") }).split(separator: ",", omittingEmptySubsequences: false)
        #expect(row[3] == "15")
        #expect(row.last?.contains("confirmedFraud") == true)
    }

    /// An `--out` naming a file these commands read (the database, a signing key, the configuration) is refused
    /// before anything is read or written: one wrong path would otherwise replace the data with a report.
    @Test func neverWritesOverTheFilesItReads() throws {
        let database = directory + "/data/" + SQLiteStore.fileName
        // Judged by content, not bytes: the store `init` wrote may still be folding its WAL into the file as it
        // closes (seen under AddressSanitizer), which changes the bytes but not what they hold.
        func evaluationCount() throws -> Int { try integer("SELECT count(*) FROM evaluation") }
        #expect(try evaluationCount() == 30)
        let copiedConfig = directory + "/config.json"
        try FileManager.default.copyItem(atPath: Self.repositoryRoot + "/config/default.json", toPath: copiedConfig)
        for (command, out) in [(["export", "metrics"], database), (["report"], directory + "/data/./" + SQLiteStore.fileName),
                               (["export", "metrics"], database + "-wal")] {
            let (status, output) = run(command + ["--tenant", "acme", "--out", out])
            #expect(status == 64, "\(command) \(out)")
            #expect(output.standardError.withLock { $0 }.contains("names the input file"), "\(output.standardError.withLock { $0 })")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)).starts(with: Array("SQLite format 3\0".utf8)))
        #expect(try evaluationCount() == 30)
        // The configuration file, named through --config: `run` passes the shipped one, so name the copy here.
        let output = Output()
        let status = CommandLineTool(root: RootCommand.spec).run(
            ["export", "metrics", "--tenant", "acme", "--data-dir", directory + "/data", "--config", copiedConfig, "--out", copiedConfig],
            environment: output.environment)
        #expect(status == 64)
        #expect(try String(contentsOfFile: copiedConfig, encoding: .utf8).contains("\"port\""))
    }

    /// Nor over the files the service reads that these commands do not: its configuration folder, catalogues,
    /// manifest and models. An export written over the manifest or a listed model took the service down at its next
    /// start (command-line probe, 6 December).
    @Test func neverWritesOverTheServicesConfigurationOrModels() throws {
        let config = directory + "/config-copy", models = directory + "/models-copy"
        try FileManager.default.copyItem(atPath: Self.repositoryRoot + "/config", toPath: config)
        try FileManager.default.copyItem(atPath: Self.repositoryRoot + "/models", toPath: models)
        let modelFile = try #require(try FileManager.default.contentsOfDirectory(atPath: models).first { $0.hasPrefix("payment-") })
        let targets = [models + "/manifest.json", models + "/" + modelFile, config + "/rate-limits.json",
                       config + "/velocity.json", config + "/features/account.json"]
        let before = try targets.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        // The folders as a deployment names them: in the configuration file.
        let configFile = directory + "/config-with-folders.json"
        try Data(#"{"configDir": "\#(config)", "modelsDir": "\#(models)"}"#.utf8).write(to: URL(fileURLWithPath: configFile))
        for (command, out) in targets.flatMap({ target in [(["export", "metrics"], target), (["report"], target)] }) {
            let output = Output()
            let status = CommandLineTool(root: RootCommand.spec).run(
                command + ["--tenant", "acme", "--data-dir", directory + "/data", "--config", configFile, "--out", out],
                environment: output.environment)
            #expect(status == 64, "\(command) \(out)")
            #expect(output.standardError.withLock { $0 }.contains("which the service reads"), "\(output.standardError.withLock { $0 })")
        }
        #expect(try targets.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        // A manifest elsewhere (another deployment's, a copy) is known by its content.
        let elsewhere = directory + "/manifest-elsewhere.json"
        try FileManager.default.copyItem(atPath: models + "/manifest.json", toPath: elsewhere)
        let (status, output) = run(["export", "metrics", "--tenant", "acme", "--out", elsewhere])
        #expect(status == 1)
        #expect(output.standardError.withLock { $0 }.contains("is a models manifest"), "\(output.standardError.withLock { $0 })")
    }

    /// The database's -journal, -wal and -shm are refused whether or not they exist now: written there, a report would
    /// be taken by SQLite for a hot journal (read-only opens then failed: "attempt to write a readonly database") or a
    /// WAL. Through a symbolic link to the missing file too, which writing would follow and create.
    @Test func neverWritesWhereTheDatabaseKeepsItsJournalOrWAL() throws {
        let database = directory + "/data/" + SQLiteStore.fileName
        let link = directory + "/journal-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "data/" + SQLiteStore.fileName + "-journal")
        for out in [database + "-journal", directory + "/data/./" + SQLiteStore.fileName + "-journal", link,
                    database + "-wal", database + "-shm"] {
            let existed = FileManager.default.fileExists(atPath: out)
            let (status, output) = run(["export", "metrics", "--tenant", "acme", "--out", out])
            #expect(status == 64, "\(out)")
            let message = output.standardError.withLock { $0 }
            #expect(message.contains("the files SQLite keeps beside it") || message.contains("names the input file"), "\(message)")
            #expect(FileManager.default.fileExists(atPath: out) == existed, "\(out)")
        }
        #expect(!FileManager.default.fileExists(atPath: database + "-journal"))
        let (status, output) = run(["export", "metrics", "--tenant", "acme"])
        #expect(status == 0, "\(output.standardError.withLock { $0 })")
    }

    /// A new name in the signing keys' folder is refused too: the service reads that folder whole, and a report
    /// there (mode 0644) stopped the next start (found by an operator probe). A folder beside it is fine.
    @Test func neverWritesIntoTheSigningKeysFolder() throws {
        let keys = directory + "/data/signing-keys"
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
        let link = directory + "/keys-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "data/signing-keys/report.html")
        for (command, out) in [(["export", "metrics"], keys + "/es256-1896489551836-aaaaaaaaaaaaaaaa.pem"),
                               (["report"], keys + "/../signing-keys/report.html"), (["report"], link)] {
            let (status, output) = run(command + ["--tenant", "acme", "--out", out])
            #expect(status == 64, "\(command) \(out)")
            #expect(output.standardError.withLock { $0 }.contains("names a file in \(keys), which the service reads whole"),
                    "\(output.standardError.withLock { $0 })")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: keys).isEmpty)
        let (status, output) = run(["export", "metrics", "--tenant", "acme", "--out", directory + "/metrics.json"])
        #expect(status == 0, "\(output.standardError.withLock { $0 })")
    }

    /// An export of one data folder must not write over another the service could take from here: the
    /// configuration file's `dataDir` while `--data-dir` names a copy (`export --data-dir alt --out
    /// data/trust-insights.sqlite` replaced the live database; second regression probe, 6 December), nor a name in
    /// a signing keys' folder still to come (refused as a usage error, not failed as a write into a missing folder).
    @Test func neverWritesOverAnotherDataFolderTheServiceCouldTake() throws {
        let live = directory + "/live"
        try FileManager.default.createDirectory(atPath: live, withIntermediateDirectories: true)
        let database = live + "/" + SQLiteStore.fileName
        try FileManager.default.copyItem(atPath: directory + "/data/" + SQLiteStore.fileName, toPath: database)
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let configFile = directory + "/config-live.json"
        try Data(#"{"dataDir": "\#(live)"}"#.utf8).write(to: URL(fileURLWithPath: configFile))
        for (command, out, said) in [
            (["export", "metrics"], database, "in the service's data folder"),
            (["report"], live + "/../live/" + SQLiteStore.fileName + "-journal", "the files SQLite keeps beside it"),
            (["export", "metrics"], live + "/signing-keys", "the signing keys' folder"),
            (["report"], live + "/signing-keys/report.html", "names a file in \(live)/signing-keys"),
            (["export", "metrics"], directory + "/data/signing-keys/x.json", "names a file in \(directory)/data/signing-keys"),
        ] {
            let output = Output()
            let status = CommandLineTool(root: RootCommand.spec).run(
                command + ["--tenant", "acme", "--data-dir", directory + "/data", "--config", configFile, "--out", out],
                environment: output.environment)
            #expect(status == 64, "\(command) \(out): \(output.standardError.withLock { $0 })")
            #expect(output.standardError.withLock { $0 }.contains(said), "\(output.standardError.withLock { $0 })")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
        #expect(!FileManager.default.fileExists(atPath: live + "/signing-keys"))
    }

    /// The CSV ends in CRLF; printing it must not add a blank line, which a CSV reader takes as a row.
    @Test func exportsCSVToStandardOutputEndingInOneLineBreak() throws {
        let (status, output) = run(["export", "metrics", "--tenant", "acme", "--format", "csv"])
        #expect(status == 0, "\(output.standardError.withLock { $0 })")
        let bytes = Array(output.standardOutput.withLock { $0 }.utf8)
        #expect(bytes.suffix(2) == [0x0D, 0x0A])
        #expect(bytes.suffix(3).first != 0x0A)
    }

    @Test func badOptionsAreUsageErrorsNamingTheOption() {
        for (arguments, flag) in [(["--group-by", "colour"], "--group-by"), (["--from", "2026-02-30"], "--from"), (["--format", "xml"], "--format")] {
            let (status, output) = run(["export", "metrics", "--tenant", "acme"] + arguments)
            #expect(status == 64)
            #expect(output.standardError.withLock { $0 }.contains("'\(flag)'"))
        }
        // Every bad option is named at once.
        let (status, output) = run(["export", "metrics", "--tenant", "acme", "--group-by", "colour", "--format", "xml"])
        #expect(status == 64)
        let text = output.standardError.withLock { $0 }
        #expect(text.contains("'--group-by'") && text.contains("'--format'"), "\(text)")
        let missing = CommandLineTool(root: RootCommand.spec).run(
            ["export", "metrics", "--tenant", "acme", "--data-dir", directory + "/nowhere", "--config", Self.repositoryRoot + "/config/default.json"],
            environment: Output().environment)
        #expect(missing == 1)
        #expect(!FileManager.default.fileExists(atPath: directory + "/nowhere"), "export never creates an empty database")
    }

    /// Export and report only read: a database of another schema version (an older server's folder, a backup)
    /// is refused, not migrated, and a SQLite file that is not ours gets no tables.
    @Test func aDatabaseOfAnotherSchemaVersionIsRefusedAndLeftAsItWas() throws {
        let path = directory + "/data/" + SQLiteStore.fileName
        func userVersion() throws -> Int { try integer("PRAGMA user_version") }
        let older = SQLiteStore.schemaVersion - 1
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA user_version = \(older)")
        }
        for arguments in [["export", "metrics", "--tenant", "acme"], ["report", "--tenant", "acme", "--out", directory + "/r.html"]] {
            let (status, output) = run(arguments)
            #expect(status == 1)
            #expect(output.standardError.withLock { $0 }.contains("has schema version \(older)"))
            #expect(output.standardError.withLock { $0 }.contains("let `serve` of this version migrate it first"))
            #expect(try userVersion() == older)
        }
        // A newer database cannot be migrated down: the advice is the newer release, not this `serve`.
        let newer = SQLiteStore.schemaVersion + 1
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA user_version = \(newer)")
        }
        let (newerStatus, newerOutput) = run(["export", "metrics", "--tenant", "acme"])
        #expect(newerStatus == 1)
        let newerText = newerOutput.standardError.withLock { $0 }
        #expect(newerText.contains("written by a newer trust-insights") && !newerText.contains("migrate it first"), "\(newerText)")
        #expect(try userVersion() == newer)
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA user_version = \(older)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/r.html"))

        let foreign = directory + "/foreign"
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
        do {
            let connection = try SQLiteConnection(path: foreign + "/" + SQLiteStore.fileName)
            try connection.execute("CREATE TABLE x (a)")
        }
        let status = CommandLineTool(root: RootCommand.spec).run(
            ["export", "metrics", "--tenant", "acme", "--data-dir", foreign, "--config", Self.repositoryRoot + "/config/default.json"],
            environment: Output().environment)
        #expect(status == 1)
        let tables = try SQLiteConnection(path: foreign + "/" + SQLiteStore.fileName, mode: .readOnly)
            .statement("SELECT count(*) FROM sqlite_master")
        _ = try tables.step()
        #expect(tables.int(0) == 1)
        tables.reset()
    }

    @Test func aTenantTheDataFolderDoesNotKnowIsAnErrorNotAnEmptyExport() {
        let (status, output) = run(["export", "metrics", "--tenant", "acmee"])
        #expect(status == 1)
        let error = output.standardError.withLock { $0 }
        #expect(error.contains("--tenant acmee: no such tenant") && error.contains("tenants: acme"))
        #expect(output.standardOutput.withLock { $0 }.isEmpty)
    }

    @Test func reportIsOneSelfContainedFileWithFourCharts() throws {
        let file = directory + "/report.html"
        let (status, output) = run(["report", "--tenant", "acme", "--out", file])
        #expect(status == 0, "\(output.standardError.withLock { $0 })")
        let html = try String(contentsOfFile: file, encoding: .utf8)
        for id in MetricsReportPage.chartIDs {
            #expect(html.contains("<svg id=\"\(id)\" class=\"chart\""))
        }
        #expect(html.components(separatedBy: "<table>").count - 1 == 4)
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains("src="))
        #expect(!html.contains("href="))
        #expect(!html.contains("url(http"))
        // The only URL is the SVG namespace, which browsers never fetch.
        #expect(html.components(separatedBy: "http").count - 1 == html.components(separatedBy: "http://www.w3.org/2000/svg").count - 1)
        #expect(html.contains("30 evaluations"))
        #expect(html.contains(">1 day<") && !html.contains(">1 days<"), "one day is singular in the latency table")
    }

    @Test(.enabled(if: chromium != nil, "Chromium is not installed (apt-get install -y chromium): the render check is skipped"))
    func reportRendersInHeadlessChromium() throws {
        let file = directory + "/report.html"
        #expect(run(["report", "--tenant", "acme", "--out", file]).status == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.repositoryRoot + "/scripts/render-report.sh")
        process.arguments = [file, directory + "/report.png", "1000", "1400"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(printed)")
        #expect(printed.hasSuffix("4 charts\n"), "\(printed)")
        let png = try Data(contentsOf: URL(fileURLWithPath: directory + "/report.png"))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR: width and height as asked for the window.
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1000)
        #expect(png.count > 20_000, "a page with four charts is not a blank image")
    }
}
