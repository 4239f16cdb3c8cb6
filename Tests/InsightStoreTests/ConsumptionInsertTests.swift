import Testing
import InsightCore
@testable import InsightStore

/// The store says whether its insert went in: the intake must not infer it by comparing records, since two identical
/// reports sent in the same millisecond are equal.
@Suite struct ConsumptionInsertTests {
    @Test func theSecondOfTwoIdenticalReportsFindsTheFirstStored() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let tenant = TenantID("acme")!
        let evaluationID = "0190b6f2-7a1c-7000-8000-0000000000a1"
        try store.recordAndWait(EvaluationRecord(
            evaluationID: evaluationID, tenant: tenant, environment: .production, keyID: "key", category: .payment,
            createdAt: 1_790_000_000_000, account: nil, device: nil, counterparty: nil,
            insights: [.init(insightID: "0190b6f2-7a1c-7000-8000-0000000000a2", position: 0, insightType: "isLikelyBeingCoached",
                             modelVersion: "v2", outcome: .high, error: nil)]))
        let report = ConsumptionRecord(
            evaluationID: evaluationID, tenant: tenant,
            report: ConsumptionReport(status: .usedIncreasedFriction, insightIDsUsed: ["0190b6f2-7a1c-7000-8000-0000000000a2"]),
            receivedAt: 1_790_000_001_000, late: false)
        #expect(try store.recordConsumptionAndWait(report) == .inserted(report))
        #expect(try store.recordConsumptionAndWait(report) == .alreadyStored(report))
    }
}
