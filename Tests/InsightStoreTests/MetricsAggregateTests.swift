import Dispatch
import Testing
import InsightCore
@testable import InsightStore

@Suite struct MetricsAggregateTests {
    let acme = TenantID("acme")!
    let globex = TenantID("globex")!
    let day: Int64 = 20_400
    var dayStart: Int64 { day * 86_400_000 }

    func evaluation(
        _ id: String, tenant: TenantID? = nil, environment: DeploymentEnvironment = .production, category: OperationCategory = .payment,
        at time: Int64, insights: [(String, String?, RiskLevel?)]
    ) -> EvaluationRecord {
        EvaluationRecord(
            evaluationID: id, tenant: tenant ?? acme, environment: environment, keyID: "key", category: category, createdAt: time,
            account: nil, device: nil, counterparty: nil,
            insights: insights.enumerated().map { position, insight in
                .init(insightID: insight.0, position: position, insightType: "isLikelyBeingCoached", modelVersion: insight.1,
                      outcome: insight.2, error: insight.2 == nil ? .insightVersionUnavailable : nil)
            })
    }

    func consume(_ store: SQLiteStore, _ id: String, _ status: ConsumptionStatus, tenant: TenantID? = nil, late: Bool = false, at time: Int64) throws {
        _ = try store.recordConsumptionAndWait(ConsumptionRecord(
            evaluationID: id, tenant: tenant ?? acme, report: ConsumptionReport(status: status, insightIDsUsed: []), receivedAt: time, late: late))
    }

    func label(_ store: SQLiteStore, _ insightID: String, _ verdict: LabelVerdict, tenant: TenantID? = nil, at time: Int64) throws {
        try store.inLabelTransactionAndWait { transaction in
            try transaction.appendLabels([LabelVersion(
                insightID: insightID, tenant: tenant ?? acme,
                content: LabelContent(verdict: verdict, fraudType: .techSupport, occurredOn: "2025-11-08", amountBand: nil), receivedAt: time)])
        }
    }

    func differences(_ store: SQLiteStore) throws -> Int { try store.aggregateRowsDifferingFromRecomputation() }

    func aggregates(_ store: SQLiteStore, tenant: TenantID? = nil, days: ClosedRange<Int64>? = nil, environments: Set<DeploymentEnvironment> = [.production]) throws -> ([MetricsAggregate], [LatencyAggregate]) {
        var rows: [MetricsAggregate] = []
        var latencies: [LatencyAggregate] = []
        let query = MetricsQuery(tenant: tenant ?? acme, days: days ?? (day - 10)...(day + 10), groupBy: [], environments: environments)
        try store.forEachAggregate(query, aggregate: { rows.append($0) }, latency: { latencies.append($0) })
        return (rows, latencies)
    }

    @Test func triggersKeepTheAggregatesEqualToARecomputation() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.recordAndWait(evaluation("e1", at: dayStart + 1000, insights: [("i1", "v2", .high), ("i2", "v1", .unknown), ("i3", nil, nil)]))
        try store.recordAndWait(evaluation("e2", at: dayStart + 2000, insights: [("i4", "v2", .high)]))
        try store.recordAndWait(evaluation("e3", environment: .sandbox, at: dayStart + 3000, insights: [("i5", "v2", .medium)]))
        try store.recordAndWait(evaluation("e4", tenant: globex, at: dayStart - 86_400_000, insights: [("i6", "v2", .high)]))
        #expect(try differences(store) == 0)
        // A label before the consumption report, then the report moves both.
        try label(store, "i1", .confirmedFraud, at: dayStart + 3 * 86_400_000)
        try consume(store, "e1", .usedIncreasedFriction, late: true, at: dayStart + 5 * 86_400_000)
        try consume(store, "e2", .notUsedNotNeeded, at: dayStart + 3000)
        #expect(try differences(store) == 0)
        // A revision flips the verdict but keeps the first label's latency; an errored insight's label counts nowhere.
        try label(store, "i1", .confirmedLegitimate, at: dayStart + 9 * 86_400_000)
        try label(store, "i3", .confirmedFraud, at: dayStart + 86_400_000)
        try label(store, "i4", .confirmedFraud, at: dayStart + 40 * 86_400_000)
        try label(store, "i6", .confirmedFraud, tenant: globex, at: dayStart)
        try consume(store, "e1", .usedReducedFriction, at: dayStart + 6 * 86_400_000)
        #expect(try differences(store) == 0)

        let (rows, latencies) = try aggregates(store)
        let key = { (version: String, outcome: RiskLevel, consumption: ConsumptionBucket) in
            MetricsAggregate.Key(environment: .production, day: day, category: .payment, modelVersion: version, outcome: outcome, consumption: consumption)
        }
        #expect(Set(rows.map(\.key)) == [key("v2", .high, .usedIncreasedFriction), key("v1", .unknown, .usedIncreasedFriction), key("v2", .high, .notUsedNotNeeded)])
        let high = try #require(rows.first { $0.key == key("v2", .high, .usedIncreasedFriction) })
        #expect((high.evaluations, high.late, high.confirmedFraud, high.confirmedLegitimate) == (1, 1, 0, 1))
        let other = try #require(rows.first { $0.key == key("v2", .high, .notUsedNotNeeded) })
        #expect((other.evaluations, other.late, other.confirmedFraud) == (1, 0, 1))
        #expect(Set(latencies.map { "\($0.key.consumption.rawValue):\($0.latencyDays):\($0.labels)" }) == ["usedIncreasedFriction:2:1", "notUsedNotNeeded:39:1"])
    }

    /// A clock stepped back between an evaluation and its first label: the latency is 0 days, not negative, so the
    /// histogram holds it and still sums to the labelled evaluations (METRICS.md; metrics probe, 7 December).
    @Test func aLabelReadingEarlierThanItsEvaluationHasALatencyOfZeroDays() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.recordAndWait(evaluation("e1", at: dayStart + 1000, insights: [("i1", "v2", .high)]))
        try store.recordAndWait(evaluation("e2", at: dayStart + 2000, insights: [("i2", "v2", .high)]))
        try label(store, "i1", .confirmedFraud, at: dayStart - 2 * 86_400_000 - 5)
        try consume(store, "e2", .usedIncreasedFriction, at: dayStart + 3000)
        try label(store, "i2", .confirmedLegitimate, at: dayStart - 600_000)
        #expect(try differences(store) == 0)
        let (_, latencies) = try aggregates(store)
        #expect(latencies.map(\.latencyDays) == [0, 0])
        #expect(latencies.map(\.labels).reduce(0, +) == 2)
    }

    @Test func readsOnlyTheTenantEnvironmentAndDaysAsked() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.recordAndWait(evaluation("e1", at: dayStart, insights: [("i1", "v2", .high)]))
        try store.recordAndWait(evaluation("e2", environment: .sandbox, at: dayStart, insights: [("i2", "v2", .high)]))
        try store.recordAndWait(evaluation("e3", tenant: globex, at: dayStart, insights: [("i3", "v2", .high)]))
        try store.recordAndWait(evaluation("e4", at: dayStart + 86_400_000, insights: [("i4", "v2", .medium)]))
        #expect(try aggregates(store).0.count == 2)
        #expect(try aggregates(store, days: day...day).0.map(\.key.outcome) == [.high])
        #expect(try aggregates(store, environments: [.sandbox]).0.map(\.key.environment) == [.sandbox])
        #expect(try aggregates(store, environments: [.sandbox, .production]).0.count == 3)
        #expect(try aggregates(store, tenant: globex).0.count == 1)
        #expect(try aggregates(store, tenant: TenantID("initech")!).0.isEmpty)
    }

    @Test func aRolledBackWriteTakesItsCountsWithIt() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.recordAndWait(evaluation("e1", at: dayStart, insights: [("i1", "v2", .high)]))
        // The second insight collides with an existing one: the whole record fails after its first insight counted.
        #expect(throws: (any Error).self) {
            try store.recordAndWait(evaluation("e2", at: dayStart, insights: [("i2", "v2", .high), ("i1", "v2", .high)]))
        }
        #expect(try differences(store) == 0)
        #expect(try aggregates(store).0.map(\.evaluations) == [1])
    }

    @Test func aBatchOfEvaluationsIsCountedOnceEachAndAFailingOneNotAtAll() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try store.recordAndWait(evaluation("e0", at: dayStart, insights: [("i0", "v2", .high)]))
        // Hold the writer so the records below commit as one batch; one of them collides with i0 and fails alone.
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        store.writer.submit({ _ in
            started.signal()
            release.wait()
        }, completion: { _ in })
        #expect(started.wait(timeout: .now() + 5) == .success)
        let pending = [
            store.record(evaluation("e1", at: dayStart, insights: [("i1", "v2", .high), ("i2", "v1", .unknown)])),
            store.record(evaluation("e2", at: dayStart, insights: [("i3", "v2", .high), ("i0", "v1", .unknown)])),
            store.record(evaluation("e3", at: dayStart + 86_400_000, insights: [("i4", "v2", .medium), ("i5", "v2", nil)])),
            store.record(evaluation("e4", category: .account, at: dayStart, insights: [("i6", "v2", .high)])),
        ]
        release.signal()
        #expect(pending.map { $0.wait() } == [true, false, true, true])
        #expect(try differences(store) == 0)
        let (rows, _) = try aggregates(store)
        #expect(rows.map(\.evaluations).reduce(0, +) == 5)
        #expect(rows.first { $0.key.outcome == .high && $0.key.category == .payment }?.evaluations == 2)
    }

    @Test func migrationSevenReplacesTheInsightTriggerAndKeepsItsCounts() throws {
        let directory = try TemporaryDirectory()
        try directory.storeDatabase(atSchemaVersion: 6, rows: """
            INSERT INTO evaluation (evaluation_id, tenant_id, environment, key_id, category, created_at) VALUES
                ('e1', 'acme', 'production', 'k', 'payment', \(dayStart));
            INSERT INTO insight VALUES ('i1', 'e1', 'acme', 0, 't', 'v2', 'high', NULL), ('i2', 'e1', 'acme', 1, 't', 'v1', 'unknown', NULL);
            """)
        let store = try SQLiteStore(directory: directory.path)
        let insightTriggers = try store.read {
            try $0.integer("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'insight'")
        }
        #expect(insightTriggers == 0)
        #expect(try differences(store) == 0)
        try store.recordAndWait(evaluation("e2", at: dayStart, insights: [("i3", "v2", .high)]))
        #expect(try differences(store) == 0)
        #expect(try aggregates(store).0.first { $0.key.modelVersion == "v2" }?.evaluations == 2)
    }

    @Test func migrationFillsTheAggregatesFromExistingRows() throws {
        let directory = try TemporaryDirectory()
        try directory.storeDatabase(atSchemaVersion: 2, rows: """
            INSERT INTO evaluation (evaluation_id, tenant_id, environment, key_id, category, created_at) VALUES
                ('e1', 'acme', 'production', 'k', 'payment', \(dayStart)), ('e2', 'acme', 'production', 'k', 'account', \(dayStart + 5));
            INSERT INTO insight VALUES ('i1', 'e1', 'acme', 0, 't', 'v2', 'high', NULL), ('i2', 'e2', 'acme', 0, 't', 'v2', 'unknown', NULL);
            INSERT INTO consumption VALUES ('e1', 'acme', 'usedIncreasedFriction', 'i1', \(dayStart + 9), 0);
            INSERT INTO label (insight_id, tenant_id, label, fraud_type, occurred_on, received_at)
                VALUES ('i1', 'acme', 'confirmedFraud', 'other', '2025-11-08', \(dayStart + 86_400_000 * 4));
            """)
        let store = try SQLiteStore(directory: directory.path)
        #expect(try differences(store) == 0)
        let (rows, latencies) = try aggregates(store)
        #expect(rows.count == 2)
        #expect(rows.map(\.confirmedFraud).reduce(0, +) == 1)
        #expect(latencies.map(\.latencyDays) == [4])
    }

    @Test func randomHistoriesStayExact() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        var random = StoreRandom(seed: 42)
        var insights: [String] = []
        var evaluations: [String] = []
        let outcomes: [RiskLevel?] = [.unknown, .unknown, .medium, .high, nil]
        for index in 0..<150 {
            switch random.next() % 4 {
            case 0, 1:
                let id = "e\(index)"
                let count = Int(random.next() % 2) + 1
                let made = (0..<count).map { ("i\(index)-\($0)", ["v1", "v2"][Int(random.next() % 2)], outcomes[Int(random.next() % 5)]) }
                try store.recordAndWait(evaluation(
                    id, environment: random.next() % 3 == 0 ? .sandbox : .production,
                    category: [.payment, .account][Int(random.next() % 2)], at: dayStart + Int64(random.next() % 5) * 86_400_000, insights: made))
                evaluations.append(id)
                insights += made.map(\.0)
            case 2 where !evaluations.isEmpty:
                let id = evaluations[Int(random.next() % UInt64(evaluations.count))]
                try consume(store, id, ConsumptionStatus.allCases[Int(random.next() % 6)], late: random.next() % 4 == 0, at: dayStart + 7 * 86_400_000)
            default:
                guard !insights.isEmpty else { continue }
                let id = insights[Int(random.next() % UInt64(insights.count))]
                try label(store, id, random.next() % 2 == 0 ? .confirmedFraud : .confirmedLegitimate, at: dayStart + Int64(random.next() % 50) * 86_400_000)
            }
        }
        #expect(try differences(store) == 0)
    }
}

struct StoreRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}
