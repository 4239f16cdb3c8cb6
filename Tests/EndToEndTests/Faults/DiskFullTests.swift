import Foundation
import InsightStore
import Testing
@testable import TrustInsightsApp

/// The data folder's disk fills up while the service runs: writes answer 503 problem+json with `Retry-After`,
/// `/readyz` turns false, everything that only reads keeps serving, and all of it recovers by itself once space
/// comes back, without losing what was acknowledged before.
@Suite(.serialized) struct DiskFullTests {
    @Test(.enabled(if: SmallFilesystem.isAvailable, "needs root to mount a small tmpfs as the data disk"))
    func writesAnswer503AndReadinessFailsWhileTheDiskIsFullThenRecover() throws {
        let disk = try SmallFilesystem(megabytes: 32)
        defer { disk.unmount() }
        try withExtendedLifetime(try LiveService { $0.dataDir = disk.path + "/data" }) { service in
            let client = try service.key()
            let partner = try service.key(role: .partner)
            let before = try service.evaluate(key: client, account: "acct-before")

            let filler = try disk.fill()
            let refused = try service.client().request("POST", "/v1/evaluations", headers: [
                ("Authorization", "Bearer \(client)"), ("Content-Type", "application/json"),
            ], body: Requests.payment(account: "acct-during"))
            #expect(refused.status == 503)
            #expect(refused.header("Content-Type") == "application/problem+json")
            #expect(refused.header("Retry-After") == "1")
            #expect(refused.text.contains("\"evaluationError\":\"serverError\""))
            // The gate's replacement answers an admitted request, so it names the key's limit like any other answer.
            #expect(refused.header("RateLimit-Policy")?.hasPrefix("\"key\"") == true)
            #expect(refused.header("RateLimit")?.hasPrefix("\"key\"") == true)

            let ready = try service.client().request("GET", "/readyz")
            #expect(ready.status == 503)
            #expect(ready.text.contains("\"storageWritable\":false"))
            // The operator's log says so once, with the free space and what to check.
            let refusals = service.logs.lines.filter { $0.contains("\"storage not writable\"") }
            #expect(refusals.count == 1)
            #expect(refusals.first?.contains("\"freeBytes\":") == true && refusals.first?.contains("\"level\":\"error\"") == true)
            // And the reserve, and what the failed write was told, so that the cause needs no deducing.
            #expect(refusals.first?.contains("\"reserveBytes\":8388608") == true && refusals.first?.contains("below the 8388608-byte reserve") == true,
                    "\(refusals)")
            #expect(try service.client().request("GET", "/metrics").text.contains("\ntrust_insights_storage_writable 0\n"))
            // Still not ready once the noted failure is older than the re-check interval: the probe itself must
            // not pass on a full disk just because its one page fits into WAL space already allocated.
            usleep(1_200_000)
            #expect(try service.client().request("GET", "/readyz").status == 503)

            let consumption = try service.post(
                "/v1/evaluations/\(before.evaluationID)/consumption", key: client,
                body: #"{"status": "usedIncreasedFriction", "insightIDsUsed": []}"#)
            #expect(consumption.status == 503)
            #expect(consumption.header("Content-Type") == "application/problem+json")
            let labels = try service.post("/v1/labels", key: partner, body: """
                {"items": [{"insightID": "\(before.insightIDs[0])", "label": "confirmedFraud", "fraudType": "techSupport", "occurredOn": "\(Self.today)"}]}
                """)
            #expect(labels.status == 503)

            // Reads need no space.
            let reader = try service.client()
            #expect(try reader.request("GET", "/healthz").status == 200)
            #expect(try reader.request("GET", "/v1/models", headers: [("Authorization", "Bearer \(client)")]).status == 200)
            #expect(try reader.request("GET", "/v1/authorization/acct-before", headers: [("Authorization", "Bearer \(client)")]).status == 200)

            // Space comes back: readiness re-checks by itself (at most once a second) and writes succeed again.
            try FileManager.default.removeItem(atPath: filler)
            #expect(try Self.poll(seconds: 5) { try service.client().request("GET", "/readyz").status == 200 })
            #expect(service.logs.lines.contains { $0.contains("\"storage writable again\"") })
            #expect(try service.client().request("GET", "/metrics").text.contains("\ntrust_insights_storage_writable 1\n"))
            #expect(try service.evaluate(key: client, account: "acct-after").insightIDs.count == 2)
            let late = try service.post(
                "/v1/evaluations/\(before.evaluationID)/consumption", key: client,
                body: #"{"status": "usedIncreasedFriction", "insightIDsUsed": []}"#)
            #expect(late.status == 201)
            #expect(try service.count("SELECT COUNT(*) FROM evaluation") == 2)
        }
    }

    /// The fault probe's case (6 December): a read transaction held by another program keeps checkpoints from
    /// getting past it, the WAL grows under the writes until the disk is below the reserve, and writes are refused.
    /// Only a write restarts the WAL, so once the reader had gone the WAL's own size kept the disk below the reserve
    /// and every write refused until a restart (four minutes in the probe). The checkpoint thread now cuts the WAL
    /// to nothing while it is what holds the reserve, and writes resume by themselves.
    @Test(.enabled(if: SmallFilesystem.isAvailable, "needs root to mount a small tmpfs as the data disk"))
    func theWALAReaderLetGrowIsCutBackOnceItGoesAndWritesResume() throws {
        let disk = try SmallFilesystem(megabytes: 32)
        defer { disk.unmount() }
        try withExtendedLifetime(try LiveService { $0.dataDir = disk.path + "/data" }) { service in
            let client = try service.key()
            _ = try service.evaluate(key: client, account: "acct-before")
            // A little over the reserve left free: what the WAL grows into.
            let filler = try disk.fill()
            var status = stat()
            #expect(stat(filler, &status) == 0)
            #expect(truncate(filler, max(0, Int(status.st_size) - Int(SQLiteStore.minimumFreeBytes) - 1_500_000)) == 0)
            let database = disk.path + "/data/" + SQLiteStore.fileName
            let reader = try SQLiteConnection(path: database, mode: .readOnly)
            try reader.execute("BEGIN")
            let snapshot = try reader.statement("SELECT COUNT(*) FROM evaluation")
            #expect(try snapshot.step())
            var refused = false
            for index in 0..<3000 where !refused {
                let answer = try service.client().request("POST", "/v1/evaluations", headers: [
                    ("Authorization", "Bearer \(client)"), ("Content-Type", "application/json"),
                ], body: Requests.payment(requestID: "req-\(index)", account: "acct-\(index)", device: "dev-\(index)"))
                #expect(answer.status == 200 || answer.status == 503, "\(answer.status) \(answer.text)")
                refused = answer.status == 503
            }
            #expect(refused, "the WAL never took the disk below the reserve")
            #expect(try service.client().request("GET", "/readyz").status == 503)
            let notWritable = service.logs.lines.first { $0.contains("\"storage not writable\"") }
            #expect(notWritable?.contains("\"walBytes\":") == true, "\(notWritable ?? "no line")")
            #expect(try !snapshot.step())
            try reader.execute("COMMIT")
            // Nothing else is freed: the WAL cut back is what brings the disk above the reserve again.
            #expect(try Self.poll(seconds: 15) { try service.client().request("GET", "/readyz").status == 200 })
            #expect(service.logs.lines.contains { $0.contains("\"storage writable again\"") })
            #expect(try service.evaluate(key: client, account: "acct-after", device: "dev-after").insightIDs.count == 2)
            #expect(FileManager.default.fileExists(atPath: filler))
        }
    }

    /// An evaluation answered 503 because its record could not be stored was never given to the app, so no
    /// consumption report is owed for it: the key's compliance figures count only the stored ones.
    @Test(.enabled(if: SmallFilesystem.isAvailable, "needs root to mount a small tmpfs as the data disk"))
    func evaluationsThatCouldNotBeStoredAreNotOwedAReport() throws {
        let disk = try SmallFilesystem(megabytes: 32)
        defer { disk.unmount() }
        let config = try LiveService.configFolder(rateLimits: """
            {"formatVersion": 1, "compliance": {"windowSeconds": 60, "minimumJudged": 1, "threshold": 0.5,
             "reducedRateFactor": 0.5, "suspendAfterSeconds": 600}}
            """)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let service = try LiveService { configuration in
            configuration.dataDir = disk.path + "/data"
            configuration.configDir = config
            configuration.consumptionDeadlineSeconds = 1
        }
        try withExtendedLifetime(service) { service in
            let client = try service.key()
            _ = try service.evaluate(key: client, account: "acct-stored")
            let filler = try disk.fill()
            for index in 0..<3 {
                let refused = try service.client().request("POST", "/v1/evaluations", headers: [
                    ("Authorization", "Bearer \(client)"), ("Content-Type", "application/json"),
                ], body: Requests.payment(account: "acct-refused-\(index)"))
                #expect(refused.status == 503)
            }
            try FileManager.default.removeItem(atPath: filler)
            // Past the deadline and the one-second bucket, every evaluation above is judged.
            usleep(3_200_000)
            let compliance = try service.client().request("GET", "/v1/compliance", headers: [("Authorization", "Bearer \(client)")])
            #expect(compliance.status == 200)
            #expect(compliance.text.contains("\"evaluationsJudged\":1,"))
            #expect(compliance.text.contains("\"missing\":1,"))
            #expect(compliance.text.contains("\"standing\":\"rateReduced\""))
        }
    }

    /// A restart on a disk that is already full, with the data folder as a stopped service leaves it (database,
    /// its emptied WAL and shared-memory index): the service starts, authenticates and reads, answers writes and
    /// `/readyz` with 503, and becomes ready by itself once space is back. (A brand-new data folder on a full disk
    /// cannot start: SQLite needs room for the index; start-up then fails naming the folder and the cause.)
    @Test(.enabled(if: SmallFilesystem.isAvailable, "needs root to mount a small tmpfs as the data disk"))
    func restartsOnAFullDiskServingReadsAndBecomesReadyWhenSpaceReturns() throws {
        let disk = try SmallFilesystem(megabytes: 32)
        defer { disk.unmount() }
        let dataDir = disk.path + "/data"
        var earlier: (client: String, evaluated: LiveService.Evaluated)?
        do {
            let first = try LiveService { $0.dataDir = dataDir }
            first.removesDataFolder = false
            let client = try first.key()
            earlier = (client, try first.evaluate(key: client))
        }
        let filler = try disk.fill()
        let service = try LiveService { $0.dataDir = dataDir }
        let (client, evaluated) = try #require(earlier)
        #expect(try service.client().request("GET", "/readyz").status == 503)
        #expect(try service.client().request("GET", "/v1/models", headers: [("Authorization", "Bearer \(client)")]).status == 200)
        let report = #"{"status": "usedEvaluationOnly", "insightIDsUsed": []}"#
        let refused = try service.post("/v1/evaluations/\(evaluated.evaluationID)/consumption", key: client, body: report)
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")

        try FileManager.default.removeItem(atPath: filler)
        #expect(try Self.poll(seconds: 5) { try service.client().request("GET", "/readyz").status == 200 })
        #expect(try service.post("/v1/evaluations/\(evaluated.evaluationID)/consumption", key: client, body: report).status == 201)
    }

    static var today: String {
        var time = time_t(Int(Date().timeIntervalSince1970))
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(parts.tm_year + 1900) + "-" + pad(parts.tm_mon + 1) + "-" + pad(parts.tm_mday)
    }

    static func pad(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// Calls `condition` every 100 ms until it holds or `seconds` pass.
    static func poll(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return try condition()
    }
}

/// A restart onto a disk that filled while the service was down says so at once: the log line and the gauge,
/// before any probe of `/readyz` or any write. Before, the gauge read 1 and nothing was logged until one of them.
@Suite(.serialized) struct DiskFullRestartTests {
    @Test(.enabled(if: SmallFilesystem.isAvailable, "needs root to mount a small tmpfs as the data disk"))
    func aRestartOntoAFullDiskIsToldWithoutAProbe() throws {
        let disk = try SmallFilesystem(megabytes: 32)
        defer { disk.unmount() }
        let dataDir = disk.path + "/data"
        do {
            let first = try LiveService { $0.dataDir = dataDir }
            first.removesDataFolder = false
            _ = try first.evaluate(key: try first.key(), account: "acct-before")
        }
        _ = try disk.fill()
        try withExtendedLifetime(try LiveService { $0.dataDir = dataDir }) { service in
            #expect(service.logs.lines.filter { $0.contains("\"storage not writable\"") }.count == 1, "\(service.logs.lines)")
            let metrics = try service.client().request("GET", "/metrics").text
            #expect(metrics.contains("\ntrust_insights_storage_writable 0\n"))
        }
    }
}
