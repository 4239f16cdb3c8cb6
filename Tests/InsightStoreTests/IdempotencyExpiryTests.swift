import Testing
import InsightCore
@testable import InsightStore

@Suite struct IdempotencyExpiryTests {
    let acme = TenantID("acme")!

    func record(_ key: String, at time: Int64) -> IdempotencyRecord {
        IdempotencyRecord(tenant: acme, environment: .production, keyDigest: "hmac " + key, bodyHash: [1, 2], response: Array("answer".utf8), createdAt: time)
    }

    func request(_ key: String) -> IdempotentRequest {
        IdempotentRequest(key: IdempotencyKey(key)!, keyDigest: "hmac " + key, body: [])
    }

    @Test func recordsBeforeTheCutOffAreDeletedAndTheRestKept() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.inLabelTransactionAndWait { transaction in
            try transaction.saveIdempotencyRecord(record("old", at: 1_000))
            try transaction.saveIdempotencyRecord(record("new", at: 2_000))
        }
        let remaining = try store.inLabelTransactionAndWait { transaction -> [String] in
            try transaction.deleteIdempotencyRecords(createdBefore: 2_000)
            return try ["old", "new"].filter { try transaction.idempotencyRecord(tenant: acme, environment: .production, request: request($0)) != nil }
        }
        #expect(remaining == ["new"])
    }

    @Test func theDeletionSeeksTheTimeIndexInsteadOfScanning() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let plan = try store.queryPlan("DELETE FROM idempotency WHERE created_at < ?")
        #expect(plan.contains("idempotency_by_time"), "\(plan)")
    }
}
