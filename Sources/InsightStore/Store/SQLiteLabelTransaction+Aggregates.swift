/// Keeps `metrics_daily` and `metrics_latency` exact for a batch of labels, set-based: once per batch, not once per
/// label row (migration 5 dropped the per-row trigger, which halved the label intake's throughput).
///
/// The batch's rows are those with `label_id` above the newest label before it (SQLite gives a new row the largest
/// rowid plus one). Per insight the batch touched, `first_new` and `last_new` bound its new rows: its verdict was
/// that of its newest label below `first_new` (none if this batch holds its first label) and is now that of
/// `last_new`, so an insight labelled several times in one batch counts once, with its final verdict. The deltas
/// are summed per aggregate key; keys whose fraud and legitimate deltas both cancel are left alone. Only insights
/// with an outcome count, as in the `*_recomputed` views that define the figures.
///
/// Every lookup is an index seek (EXPLAIN QUERY PLAN): the batch's rows are a rowid range, forced by `NOT INDEXED`
/// because for `GROUP BY insight_id` the planner would otherwise scan all of `label_by_insight`; the previous label
/// is a seek in `label_by_insight`; the GROUP BYs sort at most a batch's rows in memory (`temp_store = MEMORY`).
///
/// The statements run inside the batch's savepoint, so a batch that is rolled back takes its counts with it.
extension SQLiteLabelTransaction {
    static let newestLabelID = "SELECT coalesce(max(label_id), 0) FROM label"

    static let verdictDeltas = """
        INSERT INTO metrics_daily (tenant_id, environment, day, category, model_version, outcome, consumption,
            evaluations, late, fraud, legitimate)
        SELECT e.tenant_id, e.environment, e.created_at / 86400000, e.category, coalesce(i.model_version, ''), i.outcome,
            coalesce(c.status, 'missing'), 0, 0,
            sum((n.label = 'confirmedFraud') - coalesce(o.label = 'confirmedFraud', 0)),
            sum((n.label = 'confirmedLegitimate') - coalesce(o.label = 'confirmedLegitimate', 0))
        FROM (SELECT insight_id, min(label_id) AS first_new, max(label_id) AS last_new
              FROM label NOT INDEXED WHERE label_id > ?1 GROUP BY insight_id) AS t
        JOIN insight AS i ON i.insight_id = t.insight_id
        JOIN evaluation AS e ON e.evaluation_id = i.evaluation_id
        LEFT JOIN consumption AS c ON c.evaluation_id = i.evaluation_id
        JOIN label AS n ON n.label_id = t.last_new
        LEFT JOIN label AS o ON o.label_id =
            (SELECT max(p.label_id) FROM label AS p WHERE p.insight_id = t.insight_id AND p.label_id < t.first_new)
        WHERE i.outcome IS NOT NULL
        GROUP BY 1, 2, 3, 4, 5, 6, 7
        HAVING sum((n.label = 'confirmedFraud') - coalesce(o.label = 'confirmedFraud', 0)) <> 0
            OR sum((n.label = 'confirmedLegitimate') - coalesce(o.label = 'confirmedLegitimate', 0)) <> 0
        ON CONFLICT DO UPDATE SET fraud = fraud + excluded.fraud, legitimate = legitimate + excluded.legitimate
        """

    static let firstLabelLatencies = """
        INSERT INTO metrics_latency (tenant_id, environment, day, category, model_version, outcome, consumption,
            latency_days, labels)
        SELECT e.tenant_id, e.environment, e.created_at / 86400000, e.category, coalesce(i.model_version, ''), i.outcome,
            coalesce(c.status, 'missing'), max(0, (f.received_at - e.created_at) / 86400000), count(*)
        FROM (SELECT insight_id, min(label_id) AS first_new FROM label NOT INDEXED WHERE label_id > ?1 GROUP BY insight_id) AS t
        JOIN insight AS i ON i.insight_id = t.insight_id
        JOIN evaluation AS e ON e.evaluation_id = i.evaluation_id
        LEFT JOIN consumption AS c ON c.evaluation_id = i.evaluation_id
        JOIN label AS f ON f.label_id = t.first_new
        WHERE i.outcome IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM label AS p WHERE p.insight_id = t.insight_id AND p.label_id < t.first_new)
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
        ON CONFLICT DO UPDATE SET labels = labels + excluded.labels
        """

    /// The newest label ID before a batch: pass it to `countLabels(after:)` once the batch is inserted.
    func newestLabelID() throws -> Int64 {
        let statement = try connection.statement(Self.newestLabelID)
        defer { statement.reset() }
        _ = try statement.step()
        return statement.int64(0)
    }

    /// Adds the labels with an ID above `previousNewest` to the aggregates.
    func countLabels(after previousNewest: Int64) throws {
        try connection.statement(Self.verdictDeltas).bind(1, previousNewest).run()
        try connection.statement(Self.firstLabelLatencies).bind(1, previousNewest).run()
    }
}
