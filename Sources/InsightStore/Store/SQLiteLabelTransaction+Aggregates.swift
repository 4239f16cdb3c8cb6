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
/// One statement looks each touched insight up once (its evaluation's row, consumption, labels) into a temporary
/// table; two GROUP BYs over it upsert the daily and latency deltas. Running the lookups once instead of in each
/// upsert took the label route from 112-118k to 121-137k labels/s (docs/BENCHMARKS.md).
///
/// Every lookup is an index seek (EXPLAIN QUERY PLAN): the batch's rows are a rowid range, forced by `NOT INDEXED`
/// because for `GROUP BY insight_id` the planner would otherwise scan all of `label_by_insight`; the previous label
/// is a seek in `label_by_insight`; the temporary table and the GROUP BYs hold at most a batch's rows, in memory
/// (`temp_store = MEMORY`).
///
/// The statements run inside the batch's savepoint, so a batch that is rolled back takes its counts with it.
extension SQLiteLabelTransaction {
    static let newestLabelID = "SELECT coalesce(max(label_id), 0) FROM label"

    /// One row per insight of the batch that has an outcome: its aggregate key, its verdict deltas, and its first
    /// label's latency if the batch holds that label. Filled and emptied within each batch, on the writer connection.
    static let createScratch = """
        CREATE TEMP TABLE IF NOT EXISTS label_batch_delta (
            tenant_id TEXT, environment TEXT, day INTEGER, category TEXT, model_version TEXT, outcome TEXT,
            consumption TEXT, fraud INTEGER, legitimate INTEGER, latency_days INTEGER)
        """

    static let fillScratch = """
        INSERT INTO temp.label_batch_delta
        SELECT e.tenant_id, e.environment, e.created_at / 86400000, e.category,
            coalesce(json_extract(j.value, '$[2]'), ''), json_extract(j.value, '$[3]'),
            coalesce(c.status, 'missing'),
            (n.label = 'confirmedFraud') - coalesce(o.label = 'confirmedFraud', 0),
            (n.label = 'confirmedLegitimate') - coalesce(o.label = 'confirmedLegitimate', 0),
            CASE WHEN o.label_id IS NULL THEN max(0, (f.received_at - e.created_at) / 86400000) END
        FROM (SELECT insight_id, min(label_id) AS first_new, max(label_id) AS last_new
              FROM label NOT INDEXED WHERE label_id > ?1 GROUP BY insight_id) AS t
        \(InsightRows.resolved(idColumn: "t.insight_id"))
        LEFT JOIN consumption AS c ON c.evaluation_id = e.evaluation_id
        JOIN label AS n ON n.label_id = t.last_new
        JOIN label AS f ON f.label_id = t.first_new
        LEFT JOIN label AS o ON o.label_id =
            (SELECT max(p.label_id) FROM label AS p WHERE p.insight_id = t.insight_id AND p.label_id < t.first_new)
        WHERE json_extract(j.value, '$[3]') IS NOT NULL
        """

    static let verdictDeltas = """
        INSERT INTO metrics_daily (tenant_id, environment, day, category, model_version, outcome, consumption,
            evaluations, late, fraud, legitimate)
        SELECT tenant_id, environment, day, category, model_version, outcome, consumption, 0, 0, sum(fraud), sum(legitimate)
        FROM temp.label_batch_delta
        GROUP BY 1, 2, 3, 4, 5, 6, 7
        HAVING sum(fraud) <> 0 OR sum(legitimate) <> 0
        ON CONFLICT DO UPDATE SET fraud = fraud + excluded.fraud, legitimate = legitimate + excluded.legitimate
        """

    static let firstLabelLatencies = """
        INSERT INTO metrics_latency (tenant_id, environment, day, category, model_version, outcome, consumption,
            latency_days, labels)
        SELECT tenant_id, environment, day, category, model_version, outcome, consumption, latency_days, count(*)
        FROM temp.label_batch_delta WHERE latency_days IS NOT NULL
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
        ON CONFLICT DO UPDATE SET labels = labels + excluded.labels
        """

    static let emptyScratch = "DELETE FROM temp.label_batch_delta"

    /// The newest label ID before a batch: pass it to `countLabels(after:)` once the batch is inserted.
    func newestLabelID() throws -> Int64 {
        let statement = try connection.statement(Self.newestLabelID)
        defer { statement.reset() }
        _ = try statement.step()
        return statement.int64(0)
    }

    /// Adds the labels with an ID above `previousNewest` to the aggregates.
    func countLabels(after previousNewest: Int64) throws {
        try connection.statement(Self.createScratch).run()
        // Emptied before as well as after: rows left by anything that went wrong in between would be counted twice.
        try connection.statement(Self.emptyScratch).run()
        try connection.statement(Self.fillScratch).bind(1, previousNewest).run()
        try connection.statement(Self.verdictDeltas).run()
        try connection.statement(Self.firstLabelLatencies).run()
        try connection.statement(Self.emptyScratch).run()
    }
}
