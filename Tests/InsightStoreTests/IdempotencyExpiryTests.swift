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

    /// Migration 13 moves the records into a rowid table (a WITHOUT ROWID table kept each stored answer in the
    /// B-tree every search walks: 4.6 ms a lookup with 600 answers of a megabyte, resources probe): what was stored
    /// still answers its retry, and the table's key is an index of its own.
    @Test func recordsKeptBeforeTheRowidTableStillAnswer() throws {
        let directory = try TemporaryDirectory()
        try directory.storeDatabase(atSchemaVersion: 12, rows: """
            INSERT INTO idempotency (tenant_id, environment, idempotency_key, body_sha256, response, created_at)
                VALUES ('acme', 'production', 'hmac kept', x'0102', CAST('answer' AS BLOB), 1000);
            """)
        let store = try SQLiteStore(directory: directory.path)
        let found = try store.inLabelTransactionAndWait { transaction in
            try transaction.idempotencyRecord(tenant: acme, environment: .production, request: request("kept"))
        }
        #expect(found?.response == Array("answer".utf8))
        #expect(found?.bodyHash == [1, 2])
        let definition = try SQLiteConnection(path: directory.file(SQLiteStore.fileName), mode: .readOnly)
            .statement("SELECT sql FROM sqlite_schema WHERE name = 'idempotency'")
        _ = try definition.step()
        #expect(!definition.string(0).uppercased().contains("WITHOUT ROWID"))
        #expect(try store.queryPlan("DELETE FROM idempotency WHERE created_at < ?").contains("idempotency_by_time"))
    }
}
