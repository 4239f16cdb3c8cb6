import InsightCore

extension SQLiteStore: ConsumptionStore {
    /// Through the `insight` view: a seek for the evaluation's row, then its array (InsightRows).
    static let insightsOfEvaluation: StaticString = """
        SELECT insight_id, position FROM insight WHERE evaluation_id = ?1 AND tenant_id = ?2 ORDER BY position
        """

    /// One query shape for unknown, foreign and other-environment evaluations alike: all are simply no row.
    public func consumptionTarget(evaluationID: String, tenant: TenantID, environment: DeploymentEnvironment) throws -> ConsumptionTarget? {
        try read { connection in
            let evaluation = try connection.statement("""
                SELECT e.created_at, c.status, c.insight_ids, c.received_at, c.late, e.key_id
                FROM evaluation AS e LEFT JOIN consumption AS c ON c.evaluation_id = e.evaluation_id
                WHERE e.evaluation_id = ? AND e.tenant_id = ? AND e.environment = ?
                """).bind(1, evaluationID).bind(2, tenant.rawValue).bind(3, environment.rawValue)
            guard try evaluation.step() else { return nil }
            let createdAt = evaluation.int64(0)
            let keyID = evaluation.string(5)
            let existing = Self.consumptionRecord(evaluation, firstColumn: 1, evaluationID: evaluationID, tenant: tenant)
            evaluation.reset()
            let insights = try connection.statement(Self.insightsOfEvaluation).bind(1, evaluationID).bind(2, tenant.rawValue)
            var insightIDs: [String] = []
            while try insights.step() { insightIDs.append(insights.string(0)) }
            return ConsumptionTarget(createdAt: createdAt, keyID: keyID, insightIDs: insightIDs, existing: existing)
        }
    }

    /// Every evaluation since `since` (milliseconds) with its key and, if reported, whether late: what the
    /// compliance tracker is rebuilt from at start.
    public func forEachEvaluationForCompliance(since: Int64, _ body: (_ keyID: String, _ createdAt: Int64, _ reportLate: Bool?) -> Void) throws {
        try read { connection in
            let statement = try connection.statement("""
                SELECT e.key_id, e.created_at, c.late FROM evaluation AS e
                LEFT JOIN consumption AS c ON c.evaluation_id = e.evaluation_id
                WHERE e.evaluation_id >= ? AND e.created_at >= ?
                """).bind(1, Identifier.lowerBound(forMilliseconds: since)).bind(2, since)
            while try statement.step() {
                body(statement.string(0), statement.int64(1), statement.isNull(2) ? nil : statement.int(2) != 0)
            }
        }
    }

    /// Inserts unless a report exists (a concurrent first report may have won); calls back with the stored one.
    public func recordConsumption(_ record: ConsumptionRecord, completion: @escaping @Sendable (Result<StoredConsumption, any Error>) -> Void) {
        // Set by the write on the writer thread and read by its completion on the same thread.
        nonisolated(unsafe) var stored = StoredConsumption.inserted(record)
        writer.submit({ connection in
            try connection.statement("""
                INSERT INTO consumption (evaluation_id, tenant_id, status, insight_ids, received_at, late)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (evaluation_id) DO NOTHING
                """)
                .bind(1, record.evaluationID).bind(2, record.tenant.rawValue).bind(3, record.report.status.rawValue)
                .bind(4, record.report.insightIDsUsed.joined(separator: ",")).bind(5, record.receivedAt)
                .bind(6, record.late ? 1 : 0)
                .run()
            // Set on every run: the writer re-runs a batch's writes after one of them fails.
            guard connection.changes == 0 else {
                stored = .inserted(record)
                return
            }
            let existing = try connection.statement(
                "SELECT status, insight_ids, received_at, late FROM consumption WHERE evaluation_id = ?")
                .bind(1, record.evaluationID)
            if try existing.step(), let found = Self.consumptionRecord(existing, firstColumn: 0, evaluationID: record.evaluationID, tenant: record.tenant) {
                stored = .alreadyStored(found)
            }
            existing.reset()
        }, completion: { outcome in
            completion(outcome.map { stored })
        })
    }

    /// Reads status, insight_ids, received_at and late from four consecutive columns; nil when they are NULL.
    private static func consumptionRecord(
        _ statement: SQLiteStatement, firstColumn: Int32, evaluationID: String, tenant: TenantID
    ) -> ConsumptionRecord? {
        guard !statement.isNull(firstColumn), let status = ConsumptionStatus(rawValue: statement.string(firstColumn)) else { return nil }
        let ids = statement.string(firstColumn + 1)
        let report = ConsumptionReport(status: status, insightIDsUsed: ids.isEmpty ? [] : ids.split(separator: ",").map(String.init))
        return ConsumptionRecord(
            evaluationID: evaluationID, tenant: tenant, report: report, receivedAt: statement.int64(firstColumn + 2),
            late: statement.int(firstColumn + 3) != 0)
    }
}
