import Dispatch
import Foundation
import InsightCore
import InsightStore
import Synchronization
import Testing

/// The real binary, killed with SIGKILL at random moments while clients write, restarted each time: every write
/// it acknowledged must be in the database afterwards, and nothing may be half-written.
@Suite("Durability under SIGKILL", .serialized)
struct DurabilityTests {
    static var binary: URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            URL(fileURLWithPath: LiveService.repositoryRoot).appendingPathComponent(".build/debug"),
        ].map { $0.appendingPathComponent("trust-insights") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// What the clients were told was stored.
    struct Acknowledged {
        var evaluations: [String: [String]] = [:]
        var consumption: Set<String> = []
        var labels: Set<String> = []
        /// Every label batch sent, acknowledged or not: the insightIDs of its items (each labelled only once).
        var batches: [[String]] = []
    }

    final class Server {
        let process = Process()
        let port: Int

        /// `serve` on `dataDirectory` with the repository's configuration and models, listening.
        init(binary: URL, dataDirectory: String, log: FileHandle = FileHandle.nullDevice) throws {
            process.executableURL = binary
            process.arguments = Self.arguments(dataDirectory: dataDirectory)
            let output = Pipe()
            process.standardOutput = output
            process.standardError = log
            try process.run()
            port = try Self.listeningPort(output, of: process)
        }

        static func arguments(dataDirectory: String) -> [String] {
            ["serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", dataDirectory,
             "--config-dir", LiveService.repositoryRoot + "/config", "--models-dir", LiveService.repositoryRoot + "/models",
             "--access-log", "false"]
        }

        /// Reads a started `serve`'s standard output up to its `listening on` line, and returns the port; stops the
        /// process if it ends without one.
        static func listeningPort(_ output: Pipe, of process: Process) throws -> Int {
            var text = ""
            let handle = output.fileHandleForReading
            while !text.contains("listening on") {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            guard let range = text.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                  let port = Int(text[range].split(separator: ":").last ?? "") else {
                process.terminate()
                throw FeedbackTestError.evaluationFailed(-1)
            }
            return port
        }

        func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    @Test func everyAcknowledgedWriteSurvivesSIGKILLAndNothingIsHalfWritten() throws {
        let binary = try #require(Self.binary, "trust-insights is not built; run `swift build` first")
        let data = NSTemporaryDirectory() + "trust-insights-kill-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (client, partner): (String, String) = try {
            let store = try SQLiteStore(directory: data)
            let issuer = KeyIssuer(store: store)
            let now = Clock.nowMilliseconds()
            return (
                try issuer.issue(tenant: TenantID("acme")!, role: .client, environment: .production, rate: 100_000, burst: 100_000, now: now).revealed,
                try issuer.issue(tenant: TenantID("acme")!, role: .partner, environment: .production, now: now).revealed)
        }()
        let acknowledged = Mutex(Acknowledged())
        var generator = SystemRandomNumberGenerator()
        for round in 0..<4 {
            let before = acknowledged.withLock { $0.evaluations.count }
            let server = try Server(binary: binary, dataDirectory: data)
            let stop = Atomic<Bool>(false)
            let workers = DispatchGroup()
            let port = server.port
            for worker in 0..<3 {
                // Threads of their own: these clients block on sockets, and Dispatch's pool (one thread per core)
                // is shared with every other test running at the same time.
                workers.enter()
                Thread.detachNewThread {
                    Self.drive(port: port, client: client, partner: partner, worker: worker, round: round,
                               stop: stop, acknowledged: acknowledged)
                    workers.leave()
                }
            }
            usleep(UInt32.random(in: 300_000...900_000, using: &generator))
            // A sanitizer build on a loaded machine may not have done enough in that time to test anything: the
            // kill waits (within a bound) for some acknowledged evaluations and, once, a label batch.
            let cap = Date() + 20
            while acknowledged.withLock({ $0.evaluations.count < before + 8 || $0.labels.isEmpty }) && Date() < cap {
                usleep(20_000)
            }
            server.kill()
            stop.store(true, ordering: .relaxed)
            workers.wait()
        }
        let snapshot = acknowledged.withLock { $0 }
        #expect(snapshot.evaluations.count > 20, "too little traffic reached the server to test anything")
        #expect(!snapshot.labels.isEmpty)

        // Recovery is SQLite's own on open; a read-only connection sees what the killed process committed.
        let connection = try SQLiteConnection(path: data + "/" + SQLiteStore.fileName)
        func strings(_ sql: String) throws -> Set<String> {
            let statement = try connection.statement(sql)
            var values = Set<String>()
            while try statement.step() { values.insert(statement.string(0)) }
            return values
        }
        let evaluations = try strings("SELECT evaluation_id FROM evaluation")
        let insights = try strings("SELECT insight_id FROM insight")
        let consumption = try strings("SELECT evaluation_id FROM consumption")
        let labelled = try strings("SELECT insight_id FROM label")
        for (evaluationID, insightIDs) in snapshot.evaluations {
            #expect(evaluations.contains(evaluationID), "acknowledged evaluation lost")
            #expect(insightIDs.allSatisfy(insights.contains), "acknowledged insight lost")
        }
        #expect(snapshot.consumption.isSubset(of: consumption), "acknowledged consumption report lost")
        #expect(snapshot.labels.isSubset(of: labelled), "acknowledged label lost")
        // Nothing half-written: every evaluation has both its insights, every label batch is all there or absent.
        let partial = try connection.statement("""
            SELECT count(*) FROM evaluation AS e
            WHERE (SELECT count(*) FROM insight AS i WHERE i.evaluation_id = e.evaluation_id) != 2
            """)
        _ = try partial.step()
        #expect(partial.int(0) == 0, "an evaluation without all of its insights")
        for batch in snapshot.batches {
            let present = batch.filter(labelled.contains).count
            #expect(present == 0 || present == batch.count, "a label batch half-written: \(present) of \(batch.count)")
        }
        let orphans = try connection.statement(
            "SELECT count(*) FROM consumption AS c WHERE NOT EXISTS (SELECT 1 FROM evaluation AS e WHERE e.evaluation_id = c.evaluation_id)")
        _ = try orphans.step()
        #expect(orphans.int(0) == 0)
    }

    /// One client: evaluations, a consumption report for most of them, and now and then a label batch over
    /// insights not labelled before. Stops at the first failure (the server is gone).
    static func drive(
        port: Int, client: String, partner: String, worker: Int, round: Int, stop: borrowing Atomic<Bool>,
        acknowledged: borrowing Mutex<Acknowledged>
    ) {
        var unlabelled: [String] = []
        var sequence = 0
        while !stop.load(ordering: .relaxed) {
            sequence += 1
            guard let connection = try? SocketClient(port: port) else { return }
            let device = "dev-\(round)-\(worker)-\(sequence)"
            guard let response = try? connection.request("POST", "/v1/evaluations", headers: [
                ("Authorization", "Bearer \(client)"), ("Content-Type", "application/json"),
            ], body: Requests.payment(account: "acct-\(worker)-\(sequence % 7)", device: device)) else { return }
            guard response.status == 200,
                  let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                  let evaluationID = object["evaluationID"] as? String,
                  let insights = object["insights"] as? [[String: Any]] else { continue }
            let insightIDs = insights.compactMap { $0["insightID"] as? String }
            acknowledged.withLock { $0.evaluations[evaluationID] = insightIDs }
            unlabelled += insightIDs
            if sequence % 4 != 0 {
                guard let report = try? connection.request(
                    "POST", "/v1/evaluations/\(evaluationID)/consumption",
                    headers: [("Authorization", "Bearer \(client)"), ("Content-Type", "application/json")],
                    body: Array(#"{"status": "usedIncreasedFriction", "insightIDsUsed": ["\#(insightIDs[0])"]}"#.utf8)) else { return }
                if report.status == 201 { acknowledged.withLock { _ = $0.consumption.insert(evaluationID) } }
            }
            if unlabelled.count >= 4 {
                let batch = unlabelled
                unlabelled = []
                let today = Timestamp.iso8601(milliseconds: Clock.nowMilliseconds()).prefix(10)
                let items = batch.map {
                    #"{"insightID": "\#($0)", "label": "confirmedFraud", "fraudType": "romance", "occurredOn": "\#(today)"}"#
                }
                acknowledged.withLock { $0.batches.append(batch) }
                guard let labels = try? connection.request("POST", "/v1/labels", headers: [
                    ("Authorization", "Bearer \(partner)"), ("Content-Type", "application/json"),
                ], body: Array(#"{"items": [\#(items.joined(separator: ","))]}"#.utf8)) else { return }
                if labels.status == 200,
                   let object = try? JSONSerialization.jsonObject(with: Data(labels.body)) as? [String: Any],
                   let results = object["results"] as? [[String: Any]] {
                    let accepted = results.filter { $0["result"] as? String == "accepted" }.compactMap { $0["insightID"] as? String }
                    acknowledged.withLock { $0.labels.formUnion(accepted) }
                }
            }
        }
    }
}
