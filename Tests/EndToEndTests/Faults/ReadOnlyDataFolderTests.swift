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
        let tenant = TenantID("acme")!
        let now = Clock.nowMilliseconds()
        do {
            let store = try SQLiteStore(directory: data)
            _ = try KeyIssuer(store: store).issue(tenant: tenant, role: .analyst, environment: .production, now: now)
            for index in 0..<12 {
                try store.recordAndWait(EvaluationRecord(
                    evaluationID: "e\(index)", tenant: tenant, environment: .production, keyID: "k", category: .payment,
                    createdAt: now - 1000, account: nil, device: nil, counterparty: nil,
                    insights: [.init(insightID: "i\(index)", position: 0, insightType: "isLikelyBeingCoached",
                                     modelVersion: "2026.11.1", outcome: index < 6 ? .unknown : .high, error: nil)]))
            }
        }
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
