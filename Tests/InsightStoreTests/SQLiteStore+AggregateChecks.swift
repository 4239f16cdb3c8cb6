@testable import InsightStore

extension SQLiteStore {
    /// Rows in one of the aggregate tables but not in its recomputation view, or the other way round: zero means
    /// the tables are exact.
    func aggregateRowsDifferingFromRecomputation() throws -> Int {
        try read { connection in
            var total = 0
            for (table, view) in [("metrics_daily", "metrics_daily_recomputed"), ("metrics_latency", "metrics_latency_recomputed")] {
                for sql in ["SELECT count(*) FROM (SELECT * FROM \(table) EXCEPT SELECT * FROM \(view))",
                            "SELECT count(*) FROM (SELECT * FROM \(view) EXCEPT SELECT * FROM \(table))"] {
                    total += try connection.integer(sql)
                }
            }
            return total
        }
    }
}
