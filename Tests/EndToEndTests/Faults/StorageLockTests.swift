import Dispatch
import Foundation
import InsightStore
import Testing
@testable import TrustInsightsApp

/// Another process holds SQLite's write lock (an operator's `sqlite3` shell, a long maintenance transaction): a
/// short hold is waited out within the busy timeout; a hold past it answers 503 problem+json with `Retry-After`
/// and turns readiness false while reads keep serving; both recover once the lock is released.
@Suite(.serialized) struct StorageLockTests {
    func lockDatabase(of service: LiveService) throws -> SQLiteConnection {
        let blocker = try SQLiteConnection(path: service.dataDirectory + "/" + SQLiteStore.fileName)
        try blocker.execute("BEGIN IMMEDIATE")
        return blocker
    }

    @Test func aBriefWriteLockIsWaitedOut() throws {
        let service = try LiveService()
        let key = try service.key()
        let blocker = try lockDatabase(of: service)
        let started = Date()
        // A thread of its own: under the full suite the Dispatch pool's few threads can all be blocked in other
        // tests for longer than the busy timeout (a CI run failed that way).
        Thread.detachNewThread {
            usleep(500_000)
            try? blocker.execute("COMMIT")
        }
        #expect(try service.evaluate(key: key).insightIDs.count == 2)
        #expect(Date().timeIntervalSince(started) >= 0.45)
    }

    @Test func aWriteLockHeldPastTheBusyTimeoutAnswers503WhileReadsServe() throws {
        let service = try LiveService()
        let key = try service.key()
        let auth = [("Authorization", "Bearer \(key)")]
        let blocker = try lockDatabase(of: service)

        let refused = try service.client().request(
            "POST", "/v1/evaluations", headers: auth + [("Content-Type", "application/json")], body: Requests.payment())
        #expect(refused.status == 503)
        #expect(refused.header("Content-Type") == "application/problem+json")
        #expect(refused.header("Retry-After") == "1")
        let ready = try service.client().request("GET", "/readyz")
        #expect(ready.status == 503)
        #expect(ready.text.contains("\"storageWritable\":false"))
        // WAL readers never wait for the writer's lock.
        let reader = try service.client()
        let started = Date()
        #expect(try reader.request("GET", "/v1/models", headers: auth).status == 200)
        #expect(try reader.request("GET", "/v1/authorization/acct-1", headers: auth).status == 200)
        #expect(Date().timeIntervalSince(started) < 1)

        try blocker.execute("COMMIT")
        #expect(try DiskFullTests.poll(seconds: 5) { try service.client().request("GET", "/readyz").status == 200 })
        #expect(try service.evaluate(key: key).insightIDs.count == 2)
    }
}
