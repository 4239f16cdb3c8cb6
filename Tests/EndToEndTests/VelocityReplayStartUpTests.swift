import Foundation
import HTTPServer
import InsightCore
import InsightStore
import Synchronization
import Testing
@testable import TrustInsightsApp

/// A start on a folder with history replays it into the velocity tracker after the port is bound (docs/VELOCITY.md,
/// "After a restart"). Until the replay ends, evaluations answer `503 notAvailable` and `/readyz` 503, so no answer
/// is made from empty counters; SIGTERM during the replay (`cancelStartUp`) cuts it short instead of waiting for it.
@Suite struct VelocityReplayStartUpTests {
    /// Enough rows that the replay lasts far longer than two requests on loopback (over a second in a debug build here, against milliseconds for the two requests).
    static let historyRows = 150_000

    @Test func evaluationsWaitForTheReplayAndAreAnsweredOnceItEnds() throws {
        let history = try History(rows: Self.historyRows)
        defer { history.remove() }
        let start = try StartingService(dataDir: history.dataDir)
        defer { start.stop() }

        let client = try SocketClient(port: try start.waitForPort())
        let headers = [("Authorization", "Bearer \(history.key)"), ("Content-Type", "application/json")]
        let during = try client.request("POST", "/v1/evaluations", headers: headers, body: Requests.payment())
        let readinessDuring = try client.request("GET", "/readyz")
        // Both answers were made during the replay only if it had not logged its end once they were back.
        try #require(!start.logs.lines.contains { $0.contains("velocity restored") }, "the replay ended before the requests")
        #expect(during.status == 503)
        #expect(during.header("Retry-After") == "1")
        #expect(try jsonObject(during)["evaluationError"] as? String == "notAvailable")
        #expect(readinessDuring.status == 503)

        try #require(start.waitUntilStarted(), "start-up failed")
        #expect(start.listeningBeforeTheReplayEnded.withLock { $0 } == true, "serve prints its port before the replay")
        let restored = start.logs.lines.first { $0.contains("velocity restored") }
        #expect(restored?.contains("\(Self.historyRows)") == true, "logged: \(restored ?? "nothing")")
        #expect(try client.request("POST", "/v1/evaluations", headers: headers, body: Requests.payment()).status == 200)
        #expect(try client.request("GET", "/readyz").status == 200)
    }

    @Test func aSignalDuringTheReplayStopsItAndTheServiceNeverTurnsReady() throws {
        let history = try History(rows: Self.historyRows)
        defer { history.remove() }
        let start = try StartingService(dataDir: history.dataDir)
        defer { start.stop() }

        _ = try start.waitForPort()
        start.runtime.cancelStartUp()
        let began = ContinuousClock.now
        try #require(start.waitUntilStarted(), "start-up failed")
        #expect(ContinuousClock.now - began < .seconds(5), "the replay ran on after the signal")
        #expect(start.logs.lines.contains { $0.contains("velocity restore stopped by a signal") })
        #expect(!start.logs.lines.contains { $0.contains("velocity restored") })
        #expect(try SocketClient(port: start.runtime.server.boundPort).request("GET", "/readyz").status == 503)
    }
}

/// A data folder with a key and `rows` evaluations of the last minutes, written straight into SQLite (oldest first,
/// one millisecond apart, 50,000 accounts), as a long-running service would have left it.
private struct History {
    let dataDir: String
    let key: String

    init(rows: Int) throws {
        let service = try LiveService()
        service.removesDataFolder = false
        dataDir = service.dataDirectory
        key = try service.key()
        let connection = try SQLiteConnection(path: dataDir + "/" + SQLiteStore.fileName)
        let now = Clock.nowMilliseconds()
        try connection.transaction {
            let insert = try connection.statement("""
                INSERT INTO evaluation (evaluation_id, tenant_id, environment, key_id, category, created_at, account_hash)
                VALUES (?, 'acme', 'sandbox', 'replay-test', 'payment', ?, ?)
                """)
            for row in 0..<rows {
                let time = now - Int64(rows - row)
                // A version-7 identifier of that millisecond, unique by its last 12 digits.
                let identifier = String(Identifier.lowerBound(forMilliseconds: time).dropLast(12)) + String(format: "%012x", row)
                try insert.bind(1, identifier).bind(2, time).bind(3, SubjectKey(high: UInt64(row % 50_000), low: 7).hex).run()
            }
        }
    }

    func remove() { try? FileManager.default.removeItem(atPath: dataDir) }
}

/// The service on a folder, started on a thread of its own because `start` returns only once the replay is over.
private final class StartingService: Sendable {
    let runtime: ServiceRuntime
    let logs = CollectingLogSink()
    private let outcome = Mutex<Bool?>(nil)
    /// Whether `start` said it was listening before the replay ended (nil until it said so).
    let listeningBeforeTheReplayEnded = Mutex<Bool?>(nil)

    init(dataDir: String) throws {
        var configuration = LiveService.configuration()
        configuration.dataDir = dataDir
        runtime = try ServiceRuntime(configuration: configuration, logSink: logs, environment: LiveService.quietEnvironment)
        Thread { [self] in
            let started = (try? runtime.start {
                // What `serve` prints its "listening on" line from: the replay must not have ended yet.
                let restored = logs.lines.contains { $0.contains("velocity restored") }
                listeningBeforeTheReplayEnded.withLock { $0 = !restored }
            }) != nil
            outcome.withLock { $0 = started }
        }.start()
    }

    func waitForPort() throws -> Int {
        let deadline = ContinuousClock.now + .seconds(30)
        while runtime.server.boundPort == 0 {
            try #require(ContinuousClock.now < deadline, "the port was not bound")
            usleep(1_000)
        }
        return runtime.server.boundPort
    }

    /// True once `start` has returned without an error; false if it threw or did not return within two minutes.
    func waitUntilStarted() -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if let started = outcome.withLock({ $0 }) { return started }
            usleep(5_000)
        }
        return false
    }

    func stop() {
        _ = waitUntilStarted()
        _ = runtime.stop()
    }
}
