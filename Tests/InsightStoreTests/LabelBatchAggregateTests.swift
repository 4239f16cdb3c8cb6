import Testing
import InsightCore
@testable import InsightStore

/// The label writer counts each batch into the metrics aggregates set-based (migration 5 dropped the per-row
/// trigger). These cases check it against the `*_recomputed` views, and against figures worked out by hand, for
/// what a per-batch computation can get wrong: repeats within a batch, revisions, mixed keys, insights without an
/// outcome, rollbacks and databases written by the trigger.
@Suite struct LabelBatchAggregateTests {
    let acme = TenantID("acme")!
    let day: Int64 = 20_400
    let dayLength: Int64 = 86_400_000
    var dayStart: Int64 { day * dayLength }

    typealias Label = (insightID: String, verdict: LabelVerdict, at: Int64)

    func evaluation(
        _ id: String, category: OperationCategory = .payment, at time: Int64, insights: [(String, RiskLevel?)]
    ) -> EvaluationRecord {
        EvaluationRecord(
            evaluationID: id, tenant: acme, environment: .production, keyID: "key", category: category, createdAt: time,
            account: nil, device: nil, counterparty: nil,
            insights: insights.enumerated().map { position, insight in
                .init(insightID: insight.0, position: position, insightType: "isLikelyBeingCoached", modelVersion: "v2",
                      outcome: insight.1, error: insight.1 == nil ? .insightVersionUnavailable : nil)
            })
    }

    func versions(_ labels: [Label]) -> [LabelVersion] {
        labels.map {
            LabelVersion(
                insightID: $0.insightID, tenant: acme,
                content: LabelContent(verdict: $0.verdict, fraudType: .techSupport, occurredOn: "2025-11-08", amountBand: nil),
                receivedAt: $0.at)
        }
    }

    /// One batch: one `appendLabels` call in one label transaction, as the intake makes it.
    func batch(_ store: SQLiteStore, _ labels: [Label]) throws {
        let versions = versions(labels)
        try store.inLabelTransactionAndWait { try $0.appendLabels(versions) }
    }

    func consume(_ store: SQLiteStore, _ id: String, _ status: ConsumptionStatus, at time: Int64) throws {
        _ = try store.recordConsumptionAndWait(ConsumptionRecord(
            evaluationID: id, tenant: acme, report: ConsumptionReport(status: status, insightIDsUsed: []), receivedAt: time, late: false))
    }

    func differences(_ store: SQLiteStore) throws -> Int { try store.aggregateRowsDifferingFromRecomputation() }

    /// Every row of both tables as text, in key order: to compare the tables before and after a write.
    func snapshot(_ store: SQLiteStore) throws -> [String] {
        try store.read { connection in
            var rows: [String] = []
            for sql in [
                "SELECT tenant_id || '|' || environment || '|' || day || '|' || category || '|' || model_version || '|' || outcome || '|' || consumption || '|' || evaluations || '|' || late || '|' || fraud || '|' || legitimate FROM metrics_daily ORDER BY 1",
                "SELECT tenant_id || '|' || environment || '|' || day || '|' || category || '|' || model_version || '|' || outcome || '|' || consumption || '|' || latency_days || '|' || labels FROM metrics_latency ORDER BY 1",
            ] {
                let statement = try connection.statement(sql)
                while try statement.step() { rows.append(statement.string(0)) }
            }
            return rows
        }
    }

    /// (fraud, legitimate) summed over the category's daily rows, and its latency rows as "days:labels".
    func figures(_ store: SQLiteStore, category: OperationCategory = .payment) throws -> (fraud: Int, legitimate: Int, latencies: [String]) {
        try store.read { connection in
            let daily = try connection.statement(
                "SELECT coalesce(sum(fraud), 0), coalesce(sum(legitimate), 0) FROM metrics_daily WHERE category = ?")
                .bind(1, category.rawValue)
            _ = try daily.step()
            let counts = (daily.int(0), daily.int(1))
            daily.reset()
            let latency = try connection.statement(
                "SELECT latency_days || ':' || labels FROM metrics_latency WHERE category = ? ORDER BY latency_days")
                .bind(1, category.rawValue)
            var latencies: [String] = []
            while try latency.step() { latencies.append(latency.string(0)) }
            return (counts.0, counts.1, latencies)
        }
    }

    @Test func severalLabelsForOneInsightInOneBatchCountItsLastVerdictAndFirstLatencyOnce() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.recordAndWait(evaluation("e1", at: dayStart, insights: [("i1", .high), ("i2", .medium)]))
        try batch(store, [
            ("i1", .confirmedLegitimate, dayStart + 2 * dayLength), ("i2", .confirmedLegitimate, dayStart + 3 * dayLength),
            ("i1", .confirmedLegitimate, dayStart + 5 * dayLength), ("i1", .confirmedFraud, dayStart + 6 * dayLength),
        ])
        #expect(try differences(store) == 0)
        let result = try figures(store)
        #expect((result.fraud, result.legitimate) == (1, 1))
        #expect(result.latencies == ["2:1", "3:1"])
    }

    @Test func revisionsAcrossBatchesMoveTheVerdictAndKeepTheFirstLatency() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.recordAndWait(evaluation("e1", at: dayStart, insights: [("i1", .high)]))
        try batch(store, [("i1", .confirmedFraud, dayStart + 4 * dayLength)])
        #expect(try figures(store).fraud == 1)
        try batch(store, [("i1", .confirmedLegitimate, dayStart + 8 * dayLength)])
        let legitimate = try figures(store)
        #expect((legitimate.fraud, legitimate.legitimate, legitimate.latencies) == (0, 1, ["4:1"]))
        try batch(store, [("i1", .confirmedFraud, dayStart + 9 * dayLength)])
        let fraud = try figures(store)
        #expect((fraud.fraud, fraud.legitimate, fraud.latencies) == (1, 0, ["4:1"]))
        #expect(try differences(store) == 0)
    }

    @Test func aBatchMixingFirstLabelsAndRevisionsOverSeveralDaysAndCategoriesIsExact() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.recordAndWait(evaluation("e1", category: .payment, at: dayStart, insights: [("p1", .high), ("p2", .unknown)]))
        try store.recordAndWait(evaluation("e2", category: .payment, at: dayStart + dayLength, insights: [("p3", .medium)]))
        try store.recordAndWait(evaluation("e3", category: .account, at: dayStart + 2 * dayLength, insights: [("a1", .high), ("a2", .high)]))
        try store.recordAndWait(evaluation("e4", category: .account, at: dayStart - 3 * dayLength, insights: [("a3", .unknown)]))
        try consume(store, "e1", .usedIncreasedFriction, at: dayStart + 1000)
        try consume(store, "e3", .notUsedNotNeeded, at: dayStart + 2 * dayLength + 1000)
        try batch(store, [("p1", .confirmedLegitimate, dayStart + dayLength), ("a1", .confirmedFraud, dayStart + 3 * dayLength)])
        try batch(store, [
            ("p1", .confirmedFraud, dayStart + 10 * dayLength), ("p2", .confirmedFraud, dayStart + 10 * dayLength),
            ("p3", .confirmedLegitimate, dayStart + 10 * dayLength), ("a1", .confirmedLegitimate, dayStart + 10 * dayLength),
            ("a2", .confirmedFraud, dayStart + 10 * dayLength), ("a3", .confirmedFraud, dayStart + 10 * dayLength),
            ("p3", .confirmedFraud, dayStart + 11 * dayLength),
        ])
        #expect(try differences(store) == 0)
        let payment = try figures(store, category: .payment)
        #expect((payment.fraud, payment.legitimate) == (3, 0))
        #expect(payment.latencies == ["1:1", "9:1", "10:1"])
        let account = try figures(store, category: .account)
        #expect((account.fraud, account.legitimate) == (2, 1))
        #expect(account.latencies == ["1:1", "8:1", "13:1"])
        // A report after the labels moves them with their insights, as before.
        try consume(store, "e2", .usedReducedFriction, at: dayStart + 12 * dayLength)
        #expect(try differences(store) == 0)
    }

    @Test func labelsOfInsightsWithoutAnOutcomeCountNowhere() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.recordAndWait(evaluation("e1", at: dayStart, insights: [("counted", .high), ("errored", nil)]))
        try batch(store, [("errored", .confirmedFraud, dayStart + dayLength), ("counted", .confirmedLegitimate, dayStart + dayLength)])
        try batch(store, [("errored", .confirmedLegitimate, dayStart + 2 * dayLength)])
        #expect(try differences(store) == 0)
        let result = try figures(store)
        #expect((result.fraud, result.legitimate, result.latencies) == (0, 1, ["1:1"]))
    }

    @Test func aBatchWhoseRevisionsCancelOutLeavesTheFiguresAsTheyWere() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.recordAndWait(evaluation("e1", at: dayStart, insights: [("i1", .high), ("i2", .high)]))
        try batch(store, [("i1", .confirmedFraud, dayStart), ("i2", .confirmedLegitimate, dayStart)])
        let before = try snapshot(store)
        // i1 and i2 swap verdicts under the same key, and i1 ends where it started within the next batch.
        try batch(store, [("i1", .confirmedLegitimate, dayStart + dayLength), ("i2", .confirmedFraud, dayStart + dayLength)])
        #expect(try snapshot(store) == before)
        try batch(store, [("i1", .confirmedFraud, dayStart + dayLength), ("i1", .confirmedLegitimate, dayStart + dayLength)])
        #expect(try snapshot(store) == before)
        #expect(try differences(store) == 0)
    }

    @Test func aBatchRolledBackToItsSavepointLeavesTheAggregatesUntouched() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.recordAndWait(evaluation("e1", at: dayStart, insights: [("i1", .high), ("i2", .medium)]))
        try batch(store, [("i1", .confirmedFraud, dayStart)])
        let before = try snapshot(store)
        // As the group committer runs a batch that fails among others: its own savepoint, rolled back, then the
        // transaction commits.
        try store.writer.withConnection { connection in
            try connection.execute("BEGIN IMMEDIATE; SAVEPOINT item")
            try SQLiteLabelTransaction(connection: connection).appendLabels(versions([
                ("i1", .confirmedLegitimate, dayStart + dayLength), ("i2", .confirmedFraud, dayStart + dayLength),
            ]))
            try connection.execute("ROLLBACK TO item; RELEASE item; COMMIT")
        }
        #expect(try snapshot(store) == before)
        // And a label transaction whose body throws after appending keeps nothing.
        struct Refused: Error {}
        let labels = versions([("i2", .confirmedFraud, dayStart + dayLength)])
        #expect(throws: Refused.self) {
            try store.inLabelTransactionAndWait { transaction -> Int in
                try transaction.appendLabels(labels)
                throw Refused()
            }
        }
        #expect(try snapshot(store) == before)
        #expect(try differences(store) == 0)
        // The next batch counts from where the aggregates really are.
        try batch(store, [("i2", .confirmedFraud, dayStart + 2 * dayLength)])
        #expect(try figures(store).fraud == 2)
        #expect(try differences(store) == 0)
    }

    @Test func theFirstBatchOfAConnectionRolledBackLeavesLaterBatchesExact() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.recordAndWait(evaluation("e1", at: dayStart, insights: [("i1", .high)]))
        let before = try snapshot(store)
        // The rollback also takes back the writer's temporary table, created by this first batch.
        try store.writer.withConnection { connection in
            try connection.execute("BEGIN IMMEDIATE; SAVEPOINT item")
            try SQLiteLabelTransaction(connection: connection).appendLabels(versions([("i1", .confirmedFraud, dayStart)]))
            try connection.execute("ROLLBACK TO item; RELEASE item; COMMIT")
        }
        #expect(try snapshot(store) == before)
        try batch(store, [("i1", .confirmedLegitimate, dayStart + dayLength)])
        try batch(store, [("i1", .confirmedFraud, dayStart + 2 * dayLength)])
        let result = try figures(store)
        #expect((result.fraud, result.legitimate, result.latencies) == (1, 0, ["1:1"]))
        #expect(try differences(store) == 0)
    }

    @Test func migrationFromVersion4KeepsTheFiguresTheTriggerKept() throws {
        let directory = try TemporaryDirectory()
        try directory.storeDatabase(atSchemaVersion: 4, rows: """
            INSERT INTO evaluation (evaluation_id, tenant_id, environment, key_id, category, created_at) VALUES
                ('e1', 'acme', 'production', 'k', 'payment', \(dayStart)), ('e2', 'acme', 'production', 'k', 'account', \(dayStart));
            INSERT INTO insight VALUES ('i1', 'e1', 'acme', 0, 't', 'v2', 'high', NULL), ('i2', 'e2', 'acme', 0, 't', 'v2', 'unknown', NULL);
            INSERT INTO label (insight_id, tenant_id, label, fraud_type, occurred_on, received_at) VALUES
                ('i1', 'acme', 'confirmedFraud', 'other', '2025-11-08', \(dayStart + 2 * dayLength)),
                ('i2', 'acme', 'confirmedFraud', 'other', '2025-11-08', \(dayStart + 3 * dayLength)),
                ('i1', 'acme', 'confirmedLegitimate', 'other', '2025-11-08', \(dayStart + 5 * dayLength));
            """)
        let store = try SQLiteStore(directory: directory.path)
        let triggers = try store.read { connection in
            let statement = try connection.statement("SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name)")
            _ = try statement.step()
            return statement.string(0)
        }
        #expect(triggers == "metrics_move_consumption")
        #expect(try differences(store) == 0)
        let payment = try figures(store, category: .payment)
        #expect((payment.fraud, payment.legitimate, payment.latencies) == (0, 1, ["2:1"]))
        // Labels written after the migration revise the trigger's figures.
        try batch(store, [("i1", .confirmedFraud, dayStart + 6 * dayLength), ("i2", .confirmedLegitimate, dayStart + 6 * dayLength)])
        #expect(try differences(store) == 0)
        #expect(try figures(store, category: .payment).fraud == 1)
        #expect(try figures(store, category: .account).legitimate == 1)
    }

    @Test func randomBatchesStayExact() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        var random = StoreRandom(seed: 7)
        var insights: [String] = []
        var evaluations: [String] = []
        let outcomes: [RiskLevel?] = [.unknown, .medium, .high, nil]
        for index in 0..<120 {
            switch random.next() % 5 {
            case 0, 1:
                let id = "e\(index)"
                let made = (0..<Int(random.next() % 3) + 1).map { ("i\(index)-\($0)", outcomes[Int(random.next() % 4)]) }
                try store.recordAndWait(evaluation(
                    id, category: [.payment, .account][Int(random.next() % 2)], at: dayStart + Int64(random.next() % 4) * dayLength,
                    insights: made))
                evaluations.append(id)
                insights += made.map(\.0)
            case 2 where !evaluations.isEmpty:
                let id = evaluations[Int(random.next() % UInt64(evaluations.count))]
                try consume(store, id, ConsumptionStatus.allCases[Int(random.next() % 6)], at: dayStart + 5 * dayLength)
            default:
                guard !insights.isEmpty else { continue }
                // Batches draw from a few recent insights, so repeats within a batch and revisions are common.
                let pool = insights.suffix(8)
                let labels: [Label] = (0..<Int(random.next() % 12) + 1).map { _ in
                    (pool[pool.startIndex + Int(random.next() % UInt64(pool.count))],
                     random.next() % 2 == 0 ? .confirmedFraud : .confirmedLegitimate,
                     dayStart + Int64(random.next() % 30) * dayLength)
                }
                try batch(store, labels)
            }
            #expect(try differences(store) == 0, "after step \(index)")
        }
    }
}
