import Testing
import InsightCore
import InsightCrypto
@testable import InsightStore

/// Since schema migration 12 an evaluation's insights live in its row (InsightRows), and an insight is found from its
/// identifier without an index of insight identifiers: a derived identifier names its evaluation's row and position,
/// any other is mapped in `insight_identifier`. Both must find exactly the right insight, the insights of an
/// evaluation in position order, rows written before the migration included, by seeks rather than scans.
@Suite struct InsightsOfEvaluationTests {
    private let tenant = TenantID("acme")!
    private let random = RandomReserve()
    private let time: Int64 = 1_795_000_000_000

    private func record(_ evaluationID: String, insights insightIDs: [String], tenant: TenantID? = nil) -> EvaluationRecord {
        EvaluationRecord(
            evaluationID: evaluationID, tenant: tenant ?? self.tenant, environment: .production, keyID: "key",
            category: .payment, createdAt: time, account: nil, device: nil, counterparty: nil,
            insights: insightIDs.enumerated().map { position, insightID in
                .init(insightID: insightID, position: position, insightType: "isLikelyBeingCoached", modelVersion: "v2",
                      outcome: .medium, error: nil)
            })
    }

    /// An evaluation as the evaluator makes one: identifiers derived from the evaluation's.
    private func derivedRecord(insights count: Int) -> EvaluationRecord {
        let evaluationID = Identifier.evaluation(at: time, random: random)
        return record(evaluationID, insights: (0..<count).map { Identifier.insight(ofEvaluation: evaluationID, position: $0) })
    }

    private func insights(of evaluationID: String, in store: SQLiteStore, tenant: TenantID? = nil) throws -> [String]? {
        try store.consumptionTarget(evaluationID: evaluationID, tenant: tenant ?? self.tenant, environment: .production)?.insightIDs
    }

    /// What the label intake finds: each identifier's evaluation time, for those of this tenant and environment.
    private func found(_ insightIDs: [String], in store: SQLiteStore, tenant: TenantID? = nil) throws -> Set<String> {
        let tenant = tenant ?? self.tenant
        return try store.read { connection in
            Set(try SQLiteLabelTransaction(connection: connection)
                .evaluationTimes(ofInsights: insightIDs, tenant: tenant, environment: .production).keys)
        }
    }

    private func rows(_ table: String, in store: SQLiteStore) throws -> Int {
        try store.read { try $0.integer("SELECT count(*) FROM \(table)") }
    }

    @Test func derivedIdentifiersNeedNoRowOfTheirOwnAndFindTheirInsight() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let evaluations = (0..<3).map { _ in derivedRecord(insights: 3) }
        for evaluation in evaluations { try store.recordAndWait(evaluation) }
        #expect(try rows("evaluation", in: store) == 3)
        #expect(try rows("insight_identifier", in: store) == 0)
        for evaluation in evaluations {
            let ids = evaluation.insights.map(\.insightID)
            #expect(try insights(of: evaluation.evaluationID, in: store) == ids)
            #expect(try found(ids, in: store) == Set(ids))
        }
        #expect(try insights(of: evaluations[0].evaluationID, in: store, tenant: TenantID("other")!) == nil)
        #expect(try found(evaluations[0].insights.map(\.insightID), in: store, tenant: TenantID("other")!).isEmpty)
        // The evaluation's own identifier, positions it does not have, and digits no position derives.
        let evaluationID = evaluations[0].evaluationID
        let prefix = String(evaluationID.dropLast())
        #expect(try found([evaluationID, prefix + "4", prefix + "8", prefix + "9", prefix + "f"], in: store).isEmpty)
    }

    @Test func identifiersOfTheirOwnAreMappedAndFoundInPositionOrder() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        // An evaluation identifier ending in 0, whose siblings would be derived identifiers: they must not resolve to
        // insights that came with identifiers of their own.
        let evaluation = Identifier.evaluation(at: time, random: random)
        let own = [
            Identifier.make(at: time, random: random), Identifier.make(at: time - 1, random: random),
            "3f1c2a9e-5b7d-4c1e-9a2b-6d8e0f1a2b3c",
        ]
        try store.recordAndWait(record(evaluation, insights: own))
        #expect(try rows("insight_identifier", in: store) == 3)
        #expect(try insights(of: evaluation, in: store) == own)
        #expect(try found(own, in: store) == Set(own))
        let siblings = (0..<3).map { Identifier.insight(ofEvaluation: evaluation, position: $0) }
        #expect(try found(siblings, in: store).isEmpty)
        // One derived and one not, in one evaluation: each found its own way.
        let mixed = Identifier.evaluation(at: time, random: random)
        let mixedIDs = [Identifier.insight(ofEvaluation: mixed, position: 0), Identifier.make(at: time, random: random)]
        try store.recordAndWait(record(mixed, insights: mixedIDs))
        #expect(try rows("insight_identifier", in: store) == 4)
        #expect(try insights(of: mixed, in: store) == mixedIDs)
        #expect(try found(mixedIDs + [Identifier.insight(ofEvaluation: mixed, position: 1)], in: store) == Set(mixedIDs))
    }

    @Test func rowsOfAnOlderSchemaMoveIntoTheirEvaluationsAndKeepTheirIdentifiers() throws {
        let directory = try TemporaryDirectory()
        // What releases before migration 12 wrote: an insight table, with version-4 and version-7 identifiers, a
        // label, a consumption report of the first evaluation, and the aggregates exact for them.
        try directory.storeDatabase(atSchemaVersion: 11, rows: """
            INSERT INTO evaluation (evaluation_id, tenant_id, environment, key_id, category, created_at)
                VALUES ('9b2d0c4e-1f3a-4b5c-8d6e-7f8091a2b3c0', 'acme', 'production', 'key', 'payment', 1790000000000),
                       ('01a21f82-eeda-74e0-96d6-92cb0ddcc153', 'acme', 'production', 'key', 'account', 1790000000001);
            INSERT INTO insight VALUES
                ('c0ffee00-0000-4000-8000-000000000002', '9b2d0c4e-1f3a-4b5c-8d6e-7f8091a2b3c0', 'acme', 1, 't', 'v1', 'unknown', NULL),
                ('0badcafe-0000-4000-8000-000000000001', '9b2d0c4e-1f3a-4b5c-8d6e-7f8091a2b3c0', 'acme', 0, 't', 'v2', 'high', NULL),
                ('01a21f82-eeda-7a5c-bd1d-58432ef43e24', '01a21f82-eeda-74e0-96d6-92cb0ddcc153', 'acme', 0, 't', 'v2', NULL, 'insightUnavailable');
            INSERT INTO label (insight_id, tenant_id, label, fraud_type, occurred_on, amount_band, received_at)
                VALUES ('0badcafe-0000-4000-8000-000000000001', 'acme', 'confirmedFraud', 'techSupport', '2026-09-20', NULL, 1790000100000);
            INSERT INTO consumption (evaluation_id, tenant_id, status, insight_ids, received_at, late)
                VALUES ('9b2d0c4e-1f3a-4b5c-8d6e-7f8091a2b3c0', 'acme', 'usedIncreasedFriction', '', 1790000000500, 0);
            DELETE FROM metrics_daily;
            INSERT INTO metrics_daily SELECT * FROM metrics_daily_recomputed;
            DELETE FROM metrics_latency;
            INSERT INTO metrics_latency SELECT * FROM metrics_latency_recomputed;
            """)
        let store = try SQLiteStore(directory: directory.path)
        #expect(try insights(of: "9b2d0c4e-1f3a-4b5c-8d6e-7f8091a2b3c0", in: store)
            == ["0badcafe-0000-4000-8000-000000000001", "c0ffee00-0000-4000-8000-000000000002"])
        #expect(try insights(of: "01a21f82-eeda-74e0-96d6-92cb0ddcc153", in: store) == ["01a21f82-eeda-7a5c-bd1d-58432ef43e24"])
        let old = ["c0ffee00-0000-4000-8000-000000000002", "0badcafe-0000-4000-8000-000000000001", "01a21f82-eeda-7a5c-bd1d-58432ef43e24"]
        #expect(try found(old, in: store) == Set(old))
        // The first evaluation's identifier ends in 0: the siblings it would derive find nothing.
        #expect(try found(["9b2d0c4e-1f3a-4b5c-8d6e-7f8091a2b3c1", "9b2d0c4e-1f3a-4b5c-8d6e-7f8091a2b3c2"], in: store).isEmpty)
        #expect(try rows("insight_identifier", in: store) == 3)
        let kinds = try store.read { try $0.text("SELECT group_concat(type || ' ' || name, ', ') FROM sqlite_schema WHERE name IN ('insight', 'migration_12_insight_by_evaluation')") }
        #expect(kinds == "view insight")
        // Every column of the old rows reads back through the view.
        let errorColumn = try store.read { try $0.text("SELECT error FROM insight WHERE insight_id = '01a21f82-eeda-7a5c-bd1d-58432ef43e24'") }
        #expect(errorColumn == "insightUnavailable")
        #expect(try store.aggregateRowsDifferingFromRecomputation() == 0)
        // New evaluations beside the old ones: derived, one row each.
        for _ in 0..<5 { try store.recordAndWait(derivedRecord(insights: 2)) }
        #expect(try rows("insight_identifier", in: store) == 3)
        #expect(try rows("insight", in: store) == 13)
        #expect(try store.aggregateRowsDifferingFromRecomputation() == 0)
    }

    @Test func lookupsSeekTheirRowsWithoutScanningATable() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let plans = [
            try store.queryPlan(SQLiteStore.insightsOfEvaluation.description),
            try store.queryPlan(SQLiteLabelTransaction.evaluationTimes),
        ]
        for plan in plans {
            #expect(plan.contains("SEARCH e USING PRIMARY KEY (evaluation_id=?)"), "\(plan)")
            // The only scans are of the short JSON arrays: the row's insights and the wanted identifiers.
            #expect(!plan.replacing("SCAN j VIRTUAL TABLE", with: "").replacing("SCAN wanted VIRTUAL TABLE", with: "").contains("SCAN"), "\(plan)")
        }
        #expect(try store.queryPlan(SQLiteLabelTransaction.evaluationTimes).contains("SEARCH named USING PRIMARY KEY (insight_id=?)"))
    }

    /// The consumption trigger finds the evaluation's insights by its row, and moves every one of them, whichever
    /// way their identifiers are found.
    @Test func theConsumptionTriggerSeeksTheRowAndMovesEveryInsightOfTheEvaluation() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let trigger = try store.read { try $0.text("SELECT sql FROM sqlite_schema WHERE name = 'metrics_move_consumption'") }
        #expect(trigger.contains("WHERE i.evaluation_id = NEW.evaluation_id AND i.outcome IS NOT NULL"))
        let plan = try store.queryPlan("""
            SELECT e.tenant_id, i.outcome FROM insight AS i JOIN evaluation AS e ON e.evaluation_id = i.evaluation_id
            WHERE i.evaluation_id = ?1 AND i.outcome IS NOT NULL
            """)
        #expect(plan.contains("SEARCH e USING PRIMARY KEY (evaluation_id=?)"), "\(plan)")
        #expect(!plan.replacing("SCAN j VIRTUAL TABLE", with: "").contains("SCAN"), "\(plan)")

        let evaluation = Identifier.evaluation(at: time, random: random)
        try store.recordAndWait(record(evaluation, insights: [
            Identifier.insight(ofEvaluation: evaluation, position: 0), Identifier.make(at: time - 1, random: random),
            "3f1c2a9e-5b7d-4c1e-9a2b-6d8e0f1a2b3c",
        ]))
        try store.recordAndWait(derivedRecord(insights: 1))
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

    @Test func onlyTheExactDerivedIdentifierCountsAsDerived() {
        let evaluationID = Identifier.evaluation(at: time, random: random)
        func derived(_ insightID: String, position: Int) -> Bool {
            let record = record(evaluationID, insights: [insightID])
            var insight = record.insights[0]
            insight.position = position
            return InsightRows.isDerived(insight, of: record)
        }
        let prefix = String(evaluationID.dropLast())
        #expect(derived(prefix + "1", position: 0))
        #expect(derived(prefix + "8", position: 7))
        #expect(!derived(prefix + "2", position: 0))
        #expect(!derived(prefix + "9", position: 8))
        #expect(!derived(evaluationID, position: 0))
        // Stored identifiers are lowercase: the same UUID in capitals (when it has letters) is another text.
        let capitals = prefix.uppercased()
        if capitals != prefix { #expect(!derived(capitals + "1", position: 0)) }
        #expect(!derived(prefix + "1 ", position: 0))
        #expect(!derived(String(prefix.dropLast()) + "1", position: 0))
        #expect(!derived("x" + prefix.dropFirst() + "1", position: 0))
        #expect(!derived(prefix + "1", position: -1))
    }

    @Test func insightElementsAreJSONForAnyText() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let evaluationID = Identifier.evaluation(at: time, random: random)
        let awkward = "v\"2\\\n\u{1}é"
        let record = EvaluationRecord(
            evaluationID: evaluationID, tenant: tenant, environment: .production, keyID: "key", category: .payment,
            createdAt: time, account: nil, device: nil, counterparty: nil,
            insights: [.init(insightID: Identifier.insight(ofEvaluation: evaluationID, position: 0), position: 0,
                             insightType: "isLikelyBeingCoached", modelVersion: awkward, outcome: nil, error: .insightUnavailable)])
        try store.recordAndWait(record)
        let version = try store.read { try $0.text("SELECT model_version FROM insight WHERE evaluation_id = '\(evaluationID)'") }
        #expect(version == awkward)
        let outcomeIsNull = try store.read { try $0.integer("SELECT outcome IS NULL FROM insight WHERE evaluation_id = '\(evaluationID)'") }
        #expect(outcomeIsNull == 1)
    }
}
