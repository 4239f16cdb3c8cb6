import Foundation
import HTTPServer
import InsightCore
import InsightStore
@testable import TrustInsightsApp

/// The real service, in process, on 127.0.0.1 port 0 with a fresh data folder, the repository's config and models,
/// and a log sink the test can search. Keys for any role and environment are issued on demand.
final class LiveService: @unchecked Sendable {
    static let repositoryRoot = "/" + String(#filePath).split(separator: "/").dropLast(4).joined(separator: "/")

    let dataDirectory: String
    let runtime: ServiceRuntime
    let logs = CollectingLogSink()
    /// Cleared by tests that start a second service on the same data folder.
    var removesDataFolder = true
    var port: Int { runtime.server.boundPort }

    /// Port 0, two event loops, a fresh data folder, the repository's config and models.
    static func configuration() -> ServiceConfiguration {
        var configuration = ServiceConfiguration()
        configuration.port = 0
        configuration.eventLoops = 2
        configuration.dataDir = NSTemporaryDirectory() + "trust-insights-e2e-" + UUID().uuidString
        configuration.configDir = Self.repositoryRoot + "/config"
        configuration.modelsDir = Self.repositoryRoot + "/models"
        return configuration
    }

    static let quietEnvironment = CommandEnvironment(standardOutput: { _ in }, standardError: { _ in }, variables: [:], isInteractive: false)

    init(configure: (inout ServiceConfiguration) -> Void = { _ in }) throws {
        var configuration = Self.configuration()
        configure(&configuration)
        // A test may put the data folder elsewhere (a small disk); the helpers below look where the service writes.
        dataDirectory = configuration.dataDir
        // A runtime that fails to open runs no deinit of ours: remove the folder it made, never one that was there
        // before. Once `runtime` is set, a failed start runs deinit, which stops it and removes the folder.
        let folderWasThere = FileManager.default.fileExists(atPath: dataDirectory)
        do {
            runtime = try ServiceRuntime(configuration: configuration, logSink: logs, environment: Self.quietEnvironment)
        } catch {
            if !folderWasThere { try? FileManager.default.removeItem(atPath: dataDirectory) }
            throw error
        }
        try runtime.start()
    }

    deinit {
        _ = runtime.stop()
        if removesDataFolder { try? FileManager.default.removeItem(atPath: dataDirectory) }
    }

    func key(tenant: String = "acme", role: KeyRole = .client, environment: DeploymentEnvironment = .sandbox) throws -> String {
        try KeyIssuer(store: runtime.store).issue(tenant: TenantID(tenant)!, role: role, environment: environment, now: Clock.nowMilliseconds()).revealed
    }

    func client() throws -> SocketClient { try SocketClient(port: port) }

    /// A copy of the repository's config folder with `rateLimits` as its rate-limits.json; the caller removes it.
    static func configFolder(rateLimits: String) throws -> String {
        let folder = NSTemporaryDirectory() + "trust-insights-config-" + UUID().uuidString
        try FileManager.default.copyItem(atPath: repositoryRoot + "/config", toPath: folder)
        try Data(rateLimits.utf8).write(to: URL(fileURLWithPath: folder + "/rate-limits.json"))
        return folder
    }

    /// Every byte SQLite wrote: the database, its WAL and shared memory.
    func storedBytes() throws -> [UInt8] {
        var all: [UInt8] = []
        for suffix in ["", "-wal", "-shm"] {
            if let data = FileManager.default.contents(atPath: dataDirectory + "/" + SQLiteStore.fileName + suffix) { all += data }
        }
        return all
    }
}

extension Array where Element == UInt8 {
    func contains(_ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, count >= pattern.count else { return false }
        for start in 0...(count - pattern.count) where self[start] == pattern[0] {
            if Array(self[start..<(start + pattern.count)]) == pattern { return true }
        }
        return false
    }
}

/// Requests as apps send them.
enum Requests {
    static func payment(
        requestID: String = "req-1", account: String = "acct-1", device: String = "dev-1", payee: String = "payee-1",
        features: String = #""activeCall": 1, "callDurationSeconds": 640, "screenSharingActive": 0, "sessionDurationSeconds": 95, "timeOfDayBand": 2, "amountBandRelativeToUsual": 3"#,
        insights: String = #"{"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": "current"}, {"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": {"specific": "2026.09.1"}}"#
    ) -> [UInt8] {
        Array("""
            {"requestID": "\(requestID)", "operationCategory": "payment",
             "requestedInsights": [\(insights)],
             "subject": {"accountRef": "\(account)", "deviceRef": "\(device)", "counterpartyRef": "\(payee)"},
             "features": {\(features)}}
            """.utf8)
    }
}
