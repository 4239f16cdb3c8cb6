import Testing
import InsightCore
import InsightCrypto
@testable import InsightStore

/// Since schema migration 9 there is no index by time: "evaluations since T" is a range of the primary key, whose
/// UUIDv7 identifiers begin with their creation time. The replays at start-up (velocity, compliance) must still
/// find exactly the evaluations of their window, oldest first, without scanning the table.
@Suite struct EvaluationTimeRangeTests {
    private let tenant = TenantID("acme")!
    private let random = RandomReserve()

    private func record(at time: Int64, account: String) -> EvaluationRecord {
        EvaluationRecord(
            evaluationID: Identifier.make(at: time, random: random), tenant: tenant, environment: .production,
            keyID: "key", category: .payment, createdAt: time,
            account: SubjectKey(hex: account), device: nil, counterparty: nil,
            insights: [.init(insightID: Identifier.make(at: time, random: random), position: 0,
                             insightType: "isLikelyBeingCoached", modelVersion: "v2", outcome: .medium, error: nil)])
    }

    @Test func theReplaysFindExactlyTheEvaluationsOfTheirWindowOldestFirst() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let start: Int64 = 1_795_000_000_000
        let account = String(repeating: "ab", count: 16)
        // Out of order on purpose, several in one millisecond, and one exactly at the window's edge.
        let times: [Int64] = [start + 5_000, start, start + 1_999, start + 2_000, start + 2_000, start + 2_001, start + 9_000, start + 1]
        for time in times { try store.recordAndWait(record(at: time, account: account)) }
        let since = start + 2_000

        var replayed: [Int64] = []
        try store.forEachRecentEvaluation(since: since) { replayed.append($0.createdAt); return true }
        #expect(replayed == times.filter { $0 >= since }.sorted())

        var counted: [Int64] = []
        try store.forEachEvaluationForCompliance(since: since) { _, createdAt, _ in counted.append(createdAt) }
        #expect(counted.sorted() == times.filter { $0 >= since }.sorted())
    }

    @Test func theWindowIsASeekOnThePrimaryKeyAndTheTimeIndexIsGone() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let plan = try store.queryPlan("""
            SELECT created_at FROM evaluation WHERE evaluation_id >= ? AND created_at >= ? ORDER BY evaluation_id
            """)
        #expect(plan.contains("USING PRIMARY KEY (evaluation_id>?)"), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        let indexes = try store.read { try $0.integer("SELECT count(*) FROM sqlite_schema WHERE name = 'evaluation_by_time'") }
        #expect(indexes == 0)
    }

    @Test func theLowerBoundSortsBelowEveryLaterIdentifierAndAboveEveryEarlierOne() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let time = Int64.random(in: 0...(1 << 47), using: &generator)
            let bound = Identifier.lowerBound(forMilliseconds: time)
            #expect(Identifier.isWellFormed(bound))
            #expect(Identifier.make(at: time, random: random) >= bound)
            #expect(Identifier.make(at: time + Int64.random(in: 1...100_000, using: &generator), random: random) >= bound)
            if time > 0 {
                #expect(Identifier.make(at: time - Int64.random(in: 1...min(time, 100_000), using: &generator), random: random) < bound)
            }
        }
    }
}
