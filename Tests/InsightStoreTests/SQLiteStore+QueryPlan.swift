@testable import InsightStore

extension SQLiteStore {
    /// SQLite's `EXPLAIN QUERY PLAN` for `sql`, its steps joined by "; ": what a test checks for an index seek.
    func queryPlan(_ sql: String) throws -> String {
        try read { connection in
            let statement = try connection.statement("EXPLAIN QUERY PLAN " + sql)
            var details: [String] = []
            while try statement.step() { details.append(statement.string(3)) }
            return details.joined(separator: "; ")
        }
    }
}
