import InsightCore

extension SQLiteStore: LabelStore {
    /// The batch runs as one write of the next group commit: its own savepoint, so it is kept whole or not at all.
    public func inLabelTransaction<T: Sendable>(
        _ body: @escaping (any LabelTransaction) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        // Set by the write on the writer thread and read by its completion on the same thread.
        nonisolated(unsafe) var result: T?
        writer.submit({ connection in
            result = try body(SQLiteLabelTransaction(connection: connection))
        }, completion: { outcome in
            completion(outcome.flatMap { result.map { .success($0) } ?? .failure(StoreError.notFound) })
        })
    }
}

/// Label reads and writes on the writer connection, inside the group commit's transaction. Insight IDs are looked
/// up in one statement per batch through `json_each`, so a batch of 1000 costs one query, not 1000.
struct SQLiteLabelTransaction: LabelTransaction {
    let connection: SQLiteConnection

    /// Each wanted identifier resolved to its evaluation's row (InsightRows.resolved): seeks, no scan.
    static let evaluationTimes = """
        SELECT wanted.value, e.created_at FROM json_each(?1) AS wanted
        \(InsightRows.resolved(idColumn: "wanted.value"))
        WHERE e.tenant_id = ?2 AND e.environment = ?3
        """

    func evaluationTimes(ofInsights insightIDs: [String], tenant: TenantID, environment: DeploymentEnvironment) throws -> [String: Int64] {
        guard !insightIDs.isEmpty else { return [:] }
        let statement = try connection.statement(Self.evaluationTimes).bind(1, Self.jsonArray(insightIDs))
            .bind(2, tenant.rawValue).bind(3, environment.rawValue)
        var times: [String: Int64] = [:]
        times.reserveCapacity(insightIDs.count)
        while try statement.step() { times[statement.string(0)] = statement.int64(1) }
        return times
    }

    /// Reads only each insight's newest version (an index seek for the max label_id, then that row), so the cost
    /// does not grow with the history.
    func latestLabels(ofInsights insightIDs: [String], tenant: TenantID) throws -> [String: LabelContent] {
        guard !insightIDs.isEmpty else { return [:] }
        let statement = try connection.statement("""
            SELECT l.insight_id, l.label, l.fraud_type, l.occurred_on, l.amount_band
            FROM json_each(?) AS wanted
            JOIN label AS l ON l.label_id = (SELECT max(m.label_id) FROM label AS m WHERE m.insight_id = wanted.value)
            WHERE l.tenant_id = ?
            """).bind(1, Self.jsonArray(insightIDs)).bind(2, tenant.rawValue)
        var latest: [String: LabelContent] = [:]
        while try statement.step() {
            guard let verdict = LabelVerdict(rawValue: statement.string(1)), let fraudType = FraudType(rawValue: statement.string(2)) else { continue }
            latest[statement.string(0)] = LabelContent(
                verdict: verdict, fraudType: fraudType, occurredOn: statement.string(3),
                amountBand: statement.optionalString(4).flatMap(AmountBand.init(rawValue:)))
        }
        return latest
    }

    /// Inserts the versions, then counts them into the metrics aggregates in a few set-based statements (see
    /// SQLiteLabelTransaction+Aggregates.swift).
    func appendLabels(_ versions: [LabelVersion]) throws {
        guard !versions.isEmpty else { return }
        let previousNewest = try newestLabelID()
        let insert = try connection.statement("""
            INSERT INTO label (insight_id, tenant_id, label, fraud_type, occurred_on, amount_band, received_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for version in versions {
            try insert.bind(1, version.insightID).bind(2, version.tenant.rawValue).bind(3, version.content.verdict.rawValue)
                .bind(4, version.content.fraudType.rawValue).bind(5, version.content.occurredOn)
                .bind(6, version.content.amountBand?.rawValue).bind(7, version.receivedAt)
                .run()
        }
        try countLabels(after: previousNewest)
    }

    func idempotencyRecord(tenant: TenantID, environment: DeploymentEnvironment, request: IdempotentRequest) throws -> IdempotencyRecord? {
        // The key itself is looked for too: records stored before keys were kept hashed (schema 10 and earlier)
        // hold it as sent, and live out their day. A digest never equals a key: it has a space, which no key has.
        let statement = try connection.statement("""
            SELECT body_sha256, response, created_at FROM idempotency
            WHERE tenant_id = ? AND environment = ? AND idempotency_key IN (?, ?)
            """)
            .bind(1, tenant.rawValue).bind(2, environment.rawValue).bind(3, request.keyDigest).bind(4, request.key.rawValue)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return IdempotencyRecord(
            tenant: tenant, environment: environment, keyDigest: request.keyDigest, bodyHash: statement.blob(0),
            response: statement.blob(1), createdAt: statement.int64(2))
    }

    func saveIdempotencyRecord(_ record: IdempotencyRecord) throws {
        try connection.statement("""
            INSERT INTO idempotency (tenant_id, environment, idempotency_key, body_sha256, response, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
            .bind(1, record.tenant.rawValue).bind(2, record.environment.rawValue).bind(3, record.keyDigest)
            .bind(4, blob: record.bodyHash).bind(5, blob: record.response).bind(6, record.createdAt)
            .run()
    }

    func deleteIdempotencyRecords(createdBefore time: Int64) throws {
        try connection.statement("DELETE FROM idempotency WHERE created_at < ?").bind(1, time).run()
    }

    func storedLabelBytes(keyID: String, day: Int64) throws -> LabelStorageTally {
        let statement = try connection.statement("SELECT day, bytes FROM label_storage_use WHERE key_id = ? AND day IN (?2, ?2 + 1)")
            .bind(1, keyID).bind(2, day)
        defer { statement.reset() }
        var bytesByDay: [Int64: Int64] = [:]
        while try statement.step() { bytesByDay[statement.int64(0)] = statement.int64(1) }
        return LabelStorageTally(bytesByDay: bytesByDay)
    }

    func addStoredLabelBytes(_ bytes: Int64, keyID: String, day: Int64) throws {
        try connection.statement("DELETE FROM label_storage_use WHERE day < ?1 - 1 OR day > ?1 + 1").bind(1, day).run()
        try connection.statement("""
            INSERT INTO label_storage_use (key_id, day, bytes) VALUES (?1, ?2, ?3)
            ON CONFLICT (key_id, day) DO UPDATE SET bytes = bytes + excluded.bytes
            """).bind(1, keyID).bind(2, day).bind(3, bytes).run()
    }

    /// A JSON array of the distinct IDs for `json_each`; they are issued identifiers, but are escaped all the same.
    static func jsonArray(_ values: [String]) -> String {
        var text = "["
        text.reserveCapacity(values.count * 40 + 2)
        var seen = Set<String>(minimumCapacity: values.count)
        var first = true
        for value in values where seen.insert(value).inserted {
            text += first ? "\"" : ",\""
            first = false
            if value.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
                text += value
            } else {
                for scalar in value.unicodeScalars {
                    switch scalar {
                    case "\"": text += "\\\""
                    case "\\": text += "\\\\"
                    case _ where scalar.value < 0x20: text += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                    default: text.unicodeScalars.append(scalar)
                    }
                }
            }
            text += "\""
        }
        return text + "]"
    }
}
