import Foundation
import Synchronization
import Testing
import InsightCore
@testable import InsightStore
@testable import TrustInsightsApp

/// The commands that only read (`export metrics`, `report`, `keys list`) work on a data folder nobody may write: a
/// backup or snapshot on a read-only mount. Before, they opened the serving store, which opens for writing, and
/// failed with "the database is opened for writing (SQLite code 8)" although their help says they only read.
@Suite(.serialized) struct ReadOnlyDataFolderTests {
    @Test(.enabled(if: SmallFilesystem.isAvailable, "needs root to mount a small tmpfs and remount it read-only"))
    func readingCommandsWorkOnAReadOnlyMount() throws {
        let disk = try SmallFilesystem(megabytes: 32)
        defer { disk.unmount() }
        let data = disk.path + "/data"
        try Self.makeDataFolder(data, evaluations: 12, highFrom: 6)
        try disk.remountReadOnly()
        let config = ["--data-dir", data, "--config", LiveService.repositoryRoot + "/config/default.json"]

        let export = Self.run(["export", "metrics", "--tenant", "acme", "--metrics-suppression-k", "0"] + config)
        #expect(export.status == 0, "\(export.errors)")
        #expect(export.output.contains("\"evaluations\":12"), "\(export.output)")

        let report = Self.run(["report", "--tenant", "acme", "--out", "-"] + config)
        #expect(report.status == 0, "\(report.errors)")
        #expect(report.output.contains("<svg"))

        let keys = Self.run(["keys", "list"] + config)
        #expect(keys.status == 0, "\(keys.errors)")
        #expect(keys.output.contains("acme") && keys.output.contains("analyst"), "\(keys.output)")
    }

    /// A copy of the database file alone (a `.backup`, or the file of a folder whose server stopped cleanly): WAL
    /// mode in its header, and no -wal or -shm beside it. SQLite reads a WAL database through a -shm index it would
    /// have to create, which a read-only mount refuses; the reading commands open such a file as immutable. A log
    /// with commits in it but no index is refused by name, not read without them.
    @Test(.enabled(if: SmallFilesystem.isAvailable, "needs root to mount a small tmpfs and remount it read-only"))
    func readingCommandsReadABackupCopyOnAReadOnlyMount() throws {
        let source = NSTemporaryDirectory() + "trust-insights-backup-source-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: source) }
        let disk = try SmallFilesystem(megabytes: 32)
        defer { disk.unmount() }
        try Self.makeDataFolder(source, evaluations: 7, highFrom: 0)
        // What `.backup` writes: every commit in the one file, whose header still says WAL.
        let database = source + "/" + SQLiteStore.fileName
        try SQLiteConnection(path: database).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        // Characters an SQLite URI must escape, so the immutable open is seen to find the file wherever it is.
        let copy = disk.path + "/backup ?#%41"
        let logged = disk.path + "/logged"
        for folder in [copy, logged] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            try FileManager.default.copyItem(atPath: database, toPath: folder + "/" + SQLiteStore.fileName)
        }
        let header = try #require(FileManager.default.contents(atPath: copy + "/" + SQLiteStore.fileName))
        #expect(header[18] == 2 && header[19] == 2, "the copy is in WAL mode")
        // A log with frames in it (here, bytes standing for them) and no index beside it.
        #expect(FileManager.default.createFile(
            atPath: logged + "/" + SQLiteStore.fileName + "-wal", contents: Data(repeating: 7, count: 4096)))
        try disk.remountReadOnly()
        let configuration = ["--config", LiveService.repositoryRoot + "/config/default.json"]

        let export = Self.run(["export", "metrics", "--tenant", "acme", "--metrics-suppression-k", "0", "--data-dir", copy] + configuration)
        #expect(export.status == 0, "\(export.errors)")
        #expect(export.output.contains("\"evaluations\":7"), "\(export.output)")
        let report = Self.run(["report", "--tenant", "acme", "--out", "-", "--data-dir", copy] + configuration)
        #expect(report.status == 0, "\(report.errors)")
        let keys = Self.run(["keys", "list", "--data-dir", copy] + configuration)
        #expect(keys.status == 0, "\(keys.errors)")
        #expect(keys.output.contains("acme") && keys.output.contains("analyst"), "\(keys.output)")
        #expect(FileManager.default.fileExists(atPath: copy + "/" + SQLiteStore.fileName + "-shm") == false)

        let refused = Self.run(["export", "metrics", "--tenant", "acme", "--data-dir", logged] + configuration)
        #expect(refused.status != 0)
        #expect(refused.errors.contains("write-ahead log") && refused.errors.contains("4096 bytes"), "\(refused.errors)")
    }

    /// A data folder of tenant `acme` with an analyst key and `evaluations` evaluations, `high` from `highFrom` on.
    static func makeDataFolder(_ folder: String, evaluations: Int, highFrom: Int) throws {
        let tenant = TenantID("acme")!
        let now = Clock.nowMilliseconds()
        let store = try SQLiteStore(directory: folder)
        _ = try KeyIssuer(store: store).issue(tenant: tenant, role: .analyst, environment: .production, now: now)
        for index in 0..<evaluations {
            try store.recordAndWait(EvaluationRecord(
                evaluationID: "e\(index)", tenant: tenant, environment: .production, keyID: "k", category: .payment,
                createdAt: now - 1000, account: nil, device: nil, counterparty: nil,
                insights: [.init(insightID: "i\(index)", position: 0, insightType: "isLikelyBeingCoached",
                                 modelVersion: "2026.11.1", outcome: index < highFrom ? .unknown : .high, error: nil)]))
        }
    }

    static func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        let output = Mutex("")
        let errors = Mutex("")
        let environment = CommandEnvironment(
            standardOutput: { text in output.withLock { $0 += text } },
            standardError: { text in errors.withLock { $0 += text } }, variables: [:], isInteractive: false)
        let status = CommandLineTool(root: RootCommand.spec).run(arguments, environment: environment)
        return (status, output.withLock { $0 }, errors.withLock { $0 })
    }
}
