import Testing
import InsightCore
@testable import InsightStore

/// Feedback stays inside the environment that made the evaluation: the store's lookups for consumption reports,
/// labels and idempotency keys all take it.
@Suite struct EnvironmentScopeTests {
    let acme = TenantID("acme")!
    let evaluationID = "0190b6f2-7a1c-7000-8000-000000000001"
    let insightID = "0190b6f2-7a1c-7000-8000-000000000002"

    func sandboxEvaluation() -> EvaluationRecord {
        EvaluationRecord(
            evaluationID: evaluationID, tenant: acme, environment: .sandbox, keyID: "key", category: .payment,
            createdAt: 1_790_000_000_000, account: nil, device: nil, counterparty: nil,
            insights: [.init(insightID: insightID, position: 0, insightType: "isLikelyBeingCoached", modelVersion: "v2",
                             outcome: .high, error: nil)])
    }

    @Test func aSandboxEvaluationIsInvisibleToProductionFeedback() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.recordAndWait(sandboxEvaluation())
        #expect(try store.consumptionTarget(evaluationID: evaluationID, tenant: acme, environment: .production) == nil)
        #expect(try store.consumptionTarget(evaluationID: evaluationID, tenant: acme, environment: .sandbox)?.insightIDs == [insightID])
        let times = try store.inLabelTransactionAndWait { transaction in
            try [DeploymentEnvironment.production, .sandbox].map {
                try transaction.evaluationTimes(ofInsights: [insightID], tenant: acme, environment: $0).count
            }
        }
        #expect(times == [0, 1])
    }

    @Test func oneIdempotencyKeyHoldsOneRecordPerEnvironment() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let key = IdempotentRequest(key: IdempotencyKey("nightly")!, keyDigest: "hmac 6e6967", body: [])
        let found = try store.inLabelTransactionAndWait { transaction -> [[UInt8]?] in
            for environment in DeploymentEnvironment.allCases {
                try transaction.saveIdempotencyRecord(IdempotencyRecord(
                    tenant: acme, environment: environment, keyDigest: key.keyDigest, bodyHash: [1], response: Array(environment.rawValue.utf8),
                    createdAt: 5))
            }
            return try DeploymentEnvironment.allCases.map {
                try transaction.idempotencyRecord(tenant: acme, environment: $0, request: key)?.response
            }
        }
        #expect(found == [Array("sandbox".utf8), Array("production".utf8)])
    }

    @Test func migrationEightKeepsEachEarlierRecordForBothEnvironments() throws {
        let directory = try TemporaryDirectory()
        try directory.storeDatabase(atSchemaVersion: 7, rows: """
            INSERT INTO idempotency (tenant_id, idempotency_key, body_sha256, response, created_at)
                VALUES ('acme', 'before-upgrade', x'0102', x'616e73776572', 1000);
            """)
        let store = try SQLiteStore(directory: directory.path)
        // Stored as sent, before keys were kept hashed: found by the key itself.
        let beforeUpgrade = IdempotentRequest(key: IdempotencyKey("before-upgrade")!, keyDigest: "hmac 00", body: [])
        let records = try store.inLabelTransactionAndWait { transaction in
            try DeploymentEnvironment.allCases.map {
                try transaction.idempotencyRecord(tenant: acme, environment: $0, request: beforeUpgrade)
            }
        }
        for (record, environment) in zip(records, DeploymentEnvironment.allCases) {
            #expect(record == IdempotencyRecord(
                tenant: acme, environment: environment, keyDigest: "hmac 00", bodyHash: [1, 2],
                response: Array("answer".utf8), createdAt: 1000))
        }
        // Expiry still seeks by time after the table was rebuilt.
        let plan = try store.queryPlan("DELETE FROM idempotency WHERE created_at < ?")
        #expect(plan.contains("idempotency_by_time"), "\(plan)")
    }
}
