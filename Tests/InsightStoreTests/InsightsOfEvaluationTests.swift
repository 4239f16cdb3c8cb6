import Testing
import InsightCore
import InsightCrypto
@testable import InsightStore

/// Since schema migration 10 there is no index of insights by evaluation: a consumption report finds the insights of
/// its evaluation as a range of the insight primary key (version-7 identifiers of the evaluation's millisecond), and
/// any other row through a partial index. Both halves must find exactly the evaluation's insights, in position order,
/// without scanning the table, and rows written since the migration must stay out of the partial index.
@Suite struct InsightsOfEvaluationTests {
    private let tenant = TenantID("acme")!
    private let random = RandomReserve()

    private func record(_ evaluationID: String, insights insightIDs: [String], tenant: TenantID? = nil) -> EvaluationRecord {
        EvaluationRecord(
            evaluationID: evaluationID, tenant: tenant ?? self.tenant, environment: .production, keyID: "key",
            category: .payment, createdAt: 1_795_000_000_000, account: nil, device: nil, counterparty: nil,
            insights: insightIDs.enumerated().map { position, insightID in
                .init(insightID: insightID, position: position, insightType: "isLikelyBeingCoached", modelVersion: "v2",
                      outcome: .medium, error: nil)
            })
    }

    private func insights(of evaluationID: String, in store: SQLiteStore, tenant: TenantID? = nil) throws -> [String]? {
        try store.consumptionTarget(evaluationID: evaluationID, tenant: tenant ?? self.tenant, environment: .production)?.insightIDs
    }

    @Test func evaluationsOfOneMillisecondEachFindOnlyTheirOwnInsightsInPositionOrder() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let time: Int64 = 1_795_000_000_000
        // Interleaved on purpose: the range of the millisecond holds every evaluation's insights.
        let evaluations = (0..<4).map { _ in Identifier.make(at: time, random: random) }
        let insightIDs = evaluations.map { _ in (0..<3).map { _ in Identifier.make(at: time, random: random) } }
        for (evaluation, insights) in zip(evaluations, insightIDs) {
            // Positions in an order other than the identifiers' own.
            try store.recordAndWait(record(evaluation, insights: insights.reversed()))
        }
        let neighbour = Identifier.make(at: time + 1, random: random)
        try store.recordAndWait(record(neighbour, insights: [Identifier.make(at: time + 1, random: random)]))
        for (evaluation, insights) in zip(evaluations, insightIDs) {
            #expect(try self.insights(of: evaluation, in: store) == insights.reversed())
        }
        #expect(try insights(of: neighbour, in: store)?.count == 1)
        #expect(try insights(of: evaluations[0], in: store, tenant: TenantID("other")!) == nil)
    }

    @Test func insightsOutsideTheirEvaluationsTimeAreFoundThroughThePartialIndex() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let time: Int64 = 1_795_000_000_000
        let evaluation = Identifier.make(at: time, random: random)
        // One of each: the evaluation's own millisecond, another millisecond, and a version-4 identifier.
        let insights = [
            Identifier.make(at: time, random: random), Identifier.make(at: time - 1, random: random),
            "3f1c2a9e-5b7d-4c1e-9a2b-6d8e0f1a2b3c",
        ]
        try store.recordAndWait(record(evaluation, insights: insights))
        #expect(try self.insights(of: evaluation, in: store) == insights)
        #expect(try entriesInPartialIndex(store) == 2)
    }

    @Test func rowsOfAnOlderSchemaAreFoundAfterTheMigrationAndNewRowsStayOutOfThePartialIndex() throws {
        let directory = try TemporaryDirectory()
        // What a release before time-ordered identifiers wrote: version-4 identifiers throughout.
        try directory.storeDatabase(atSchemaVersion: 9, rows: """
            INSERT INTO evaluation (evaluation_id, tenant_id, environment, key_id, category, created_at)
                VALUES ('9b2d0c4e-1f3a-4b5c-8d6e-7f8091a2b3c4', 'acme', 'production', 'key', 'payment', 1790000000000);
            INSERT INTO insight VALUES
                ('c0ffee00-0000-4000-8000-000000000002', '9b2d0c4e-1f3a-4b5c-8d6e-7f8091a2b3c4', 'acme', 1, 't', 'v1', 'unknown', NULL),
                ('0badcafe-0000-4000-8000-000000000001', '9b2d0c4e-1f3a-4b5c-8d6e-7f8091a2b3c4', 'acme', 0, 't', 'v2', 'high', NULL);
            """)
        let store = try SQLiteStore(directory: directory.path)
        #expect(try insights(of: "9b2d0c4e-1f3a-4b5c-8d6e-7f8091a2b3c4", in: store)
            == ["0badcafe-0000-4000-8000-000000000001", "c0ffee00-0000-4000-8000-000000000002"])
        let time: Int64 = 1_795_000_000_000
        for _ in 0..<20 {
            try store.recordAndWait(record(Identifier.make(at: time, random: random),
                                           insights: [Identifier.make(at: time, random: random), Identifier.make(at: time, random: random)]))
        }
        #expect(try entriesInPartialIndex(store) == 2)
        let indexes = try store.read { try $0.integer("SELECT count(*) FROM sqlite_schema WHERE name = 'insight_by_evaluation_tenant'") }
        #expect(indexes == 0)
    }

    @Test func theLookupSeeksThePrimaryKeyAndThePartialIndexWithoutScanning() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let plan = try store.queryPlan(SQLiteStore.insightsOfEvaluation.description)
        #expect(plan.contains("USING PRIMARY KEY (insight_id>? AND insight_id<?)"), "\(plan)")
        #expect(plan.contains("USING INDEX insight_by_evaluation_outside_its_time (evaluation_id=?)"), "\(plan)")
        #expect(!plan.contains("SCAN insight"), "\(plan)")
    }

    /// The consumption trigger (migration 11) finds the insights the same way: before, it looked them up by
    /// `evaluation_id` with no index to use, so every report scanned every insight.
    @Test func theConsumptionTriggerSeeksTheSameWayAndMovesEveryInsightOfTheEvaluation() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let trigger = try store.read { try $0.text("SELECT sql FROM sqlite_schema WHERE name = 'metrics_move_consumption'") }
        #expect(trigger.contains(MetricsSchema.insightsOfNewEvaluation))
        #expect(!trigger.contains("WHERE i.evaluation_id = NEW.evaluation_id"))
        let lookup = "SELECT i.insight_id FROM insight AS i WHERE i.insight_id IN ("
            + MetricsSchema.insightsOfNewEvaluation.replacing("NEW.evaluation_id", with: "?1") + ") AND i.outcome IS NOT NULL"
        let plan = try store.queryPlan(lookup)
        #expect(plan.contains("USING PRIMARY KEY (insight_id>? AND insight_id<?)"), "\(plan)")
        #expect(plan.contains("INDEX insight_by_evaluation_outside_its_time (evaluation_id=?)"), "\(plan)")
        #expect(!plan.contains("SCAN"), "\(plan)")

        // Insights of the evaluation's millisecond, of another one, and of version 4: a report moves all three.
        let time: Int64 = 1_795_000_000_000
        let evaluation = Identifier.make(at: time, random: random)
        try store.recordAndWait(record(evaluation, insights: [
            Identifier.make(at: time, random: random), Identifier.make(at: time - 1, random: random), "3f1c2a9e-5b7d-4c1e-9a2b-6d8e0f1a2b3c",
        ]))
        let neighbour = Identifier.make(at: time, random: random)
        try store.recordAndWait(record(neighbour, insights: [Identifier.make(at: time, random: random)]))
        _ = try store.recordConsumptionAndWait(ConsumptionRecord(
            evaluationID: evaluation, tenant: tenant, report: ConsumptionReport(status: .usedIncreasedFriction, insightIDsUsed: []),
            receivedAt: time + 5, late: false))
        let moved = try store.read {
            try $0.integer("SELECT coalesce(sum(evaluations), 0) FROM metrics_daily WHERE consumption = 'usedIncreasedFriction'")
        }
        #expect(moved == 3)
        #expect(try store.read { try $0.integer("SELECT sum(evaluations) FROM metrics_daily WHERE consumption = 'missing'") } == 1)
        #expect(try store.aggregateRowsDifferingFromRecomputation() == 0)
    }

    /// Rows in the partial index, counted through it (the plan check above shows that the condition selects it).
    private func entriesInPartialIndex(_ store: SQLiteStore) throws -> Int {
        try store.read { connection in
            try connection.integer("""
                SELECT count(*) FROM insight INDEXED BY insight_by_evaluation_outside_its_time
                WHERE evaluation_id IS NOT NULL
                    AND (substr(insight_id, 1, 13) <> substr(evaluation_id, 1, 13) OR substr(insight_id, 15, 1) <> '7')
                """)
        }
    }
}
