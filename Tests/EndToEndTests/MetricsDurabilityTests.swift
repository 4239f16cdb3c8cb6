import Foundation
import Glibc
import Synchronization
import Testing
import InsightCore
import InsightStore

/// The aggregates behind label metrics are written by triggers in the same transaction as the rows they count, so a
/// `kill -9` in the middle of traffic leaves them exactly equal to a recomputation, with every acknowledged write
/// counted.
@Suite struct MetricsDurabilityTests {
    static var binary: URL? {
        [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
         URL(fileURLWithPath: LiveService.repositoryRoot + "/.build/debug")]
            .map { $0.appendingPathComponent("trust-insights") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    @Test func aggregatesStayExactAcrossSigkill() throws {
        let binary = try #require(Self.binary, "trust-insights is not built; run `swift build` first")
        let data = NSTemporaryDirectory() + "trust-insights-kill-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (client, partner): (String, String) = try {
            let store = try SQLiteStore(directory: data)
            let issuer = KeyIssuer(store: store)
            let now = Clock.nowMilliseconds()
            return (try issuer.issue(tenant: TenantID("acme")!, role: .client, environment: .sandbox, now: now).revealed,
                    try issuer.issue(tenant: TenantID("acme")!, role: .partner, environment: .sandbox, now: now).revealed)
        }()
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--data-dir", data, "--config-dir", LiveService.repositoryRoot + "/config",
                             "--models-dir", LiveService.repositoryRoot + "/models", "--access-log", "false", "--event-loops", "2"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var banner = ""
        while !banner.contains("listening on http://") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(banner.split(separator: "\n").first { $0.contains("listening on http://") }
            .flatMap { $0.split(separator: ":").last }.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })

        let acknowledged = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let outcomes = ["unknown", "medium", "high"]
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            var index = 0
            while !stop.load(ordering: .relaxed) {
                index += 1
                guard let socket = try? SocketClient(port: port),
                      let response = try? socket.request("POST", "/v1/evaluations", headers: [
                        ("Authorization", "Bearer \(client)"), ("Content-Type", "application/json"),
                        ("Trust-Insights-Override-Outcome", outcomes[index % 3]),
                      ], body: Requests.payment(account: "acct-kill-\(worker)-\(index)")),
                      response.status == 200,
                      let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                      let evaluationID = object["evaluationID"] as? String,
                      let insightID = (object["insights"] as? [[String: Any]])?.first?["insightID"] as? String
                else { continue }
                acknowledged.add(1, ordering: .relaxed)
                _ = try? socket.request("POST", "/v1/evaluations/\(evaluationID)/consumption", headers: [
                    ("Authorization", "Bearer \(client)"), ("Content-Type", "application/json"),
                ], body: Array(#"{"status": "usedIncreasedFriction", "insightIDsUsed": []}"#.utf8))
                if index % 2 == 0 {
                    let today = Timestamp.day(milliseconds: Clock.nowMilliseconds())
                    _ = try? socket.request("POST", "/v1/labels", headers: [
                        ("Authorization", "Bearer \(partner)"), ("Content-Type", "application/json"),
                    ], body: Array(#"{"items": [{"insightID": "\#(insightID)", "label": "confirmedFraud", "fraudType": "other", "occurredOn": "\#(today)"}]}"#.utf8))
                }
                if worker == 0 && acknowledged.load(ordering: .relaxed) >= 60 {
                    kill(process.processIdentifier, SIGKILL)
                    stop.store(true, ordering: .relaxed)
                }
            }
        }
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let store = try SQLiteStore(directory: data)
        try store.read { connection in
            for (table, view) in [("metrics_daily", "metrics_daily_recomputed"), ("metrics_latency", "metrics_latency_recomputed")] {
                for sql in ["SELECT count(*) FROM (SELECT * FROM \(table) EXCEPT SELECT * FROM \(view))",
                            "SELECT count(*) FROM (SELECT * FROM \(view) EXCEPT SELECT * FROM \(table))"] {
                    let statement = try connection.statement(sql)
                    _ = try statement.step()
                    #expect(statement.int(0) == 0, "\(sql)")
                }
            }
            // Each evaluation asked for two insights (the current and a prior model); every acknowledged one counts.
            let counted = try connection.statement("SELECT coalesce(sum(evaluations), 0) FROM metrics_daily")
            _ = try counted.step()
            #expect(counted.int(0) >= 2 * acknowledged.load(ordering: .relaxed))
        }
    }
}
