import Dispatch
import Foundation
@testable import InsightStore
import Testing
@testable import TrustInsightsApp

/// Another process holds SQLite's write lock (an operator's `sqlite3` shell, a long maintenance transaction): a
/// short hold is waited out within the busy timeout; a hold past it answers 503 problem+json with `Retry-After`
/// and turns readiness false while reads keep serving; both recover once the lock is released. And a write that
/// waits for the store's own connection keeps no event loop waiting.
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

    /// A change of authorization waiting for its commit holds no event loop: with one loop, and the store's write
    /// connection held (as a long checkpoint holds it), another client's read is answered meanwhile, and the change
    /// once the connection is let go. The loop used to wait for the commit, so the read waited for it too.
    @Test func aChangeWaitingForItsCommitHoldsNoEventLoop() throws {
        let service = try LiveService { $0.eventLoops = 1 }
        let key = try service.key()
        let auth = [("Authorization", "Bearer \(key)")]
        #expect(try service.client().request("GET", "/v1/authorization/acct-other", headers: auth).status == 200)
        let held = DispatchSemaphore(value: 0)
        let letGo = DispatchSemaphore(value: 0)
        let store = service.runtime.store
        // A thread of its own, for as long as the test needs: the Dispatch pool's threads may all be busy elsewhere.
        Thread.detachNewThread {
            store.writer.withConnection { _ in
                held.signal()
                letGo.wait()
            }
        }
        held.wait()
        var released = false
        defer { if !released { letGo.signal() } }
        let changer = try service.client()
        let body = Array(#"{"status":"denied"}"#.utf8)
        changer.send(Array("PUT /v1/authorization/acct-held HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        // Time for the loop to take the change and queue its write; the order matters, not how long it takes. (With
        // the loop waiting for the commit, the read below gets no answer and fails at the client's 10 s timeout.)
        usleep(200_000)
        #expect(try service.client().request("GET", "/v1/models", headers: auth).status == 200)
        released = true
        letGo.signal()
        let changed = try changer.readResponse()
        #expect(changed.status == 200, "\(changed.text)")
        #expect(changed.text.contains(#""pendingStatus":"denied""#), "\(changed.text)")
        #expect(try service.client().request("GET", "/v1/authorization/acct-held", headers: auth).text.contains(#""pendingStatus":"denied""#))
    }
}
