@testable import InsightStore

extension SQLiteConnection {
    /// The first column of the first row of a one-integer query (a count, in these tests). The statement is reset, as
    /// the connection keeps it for reuse.
    func integer(_ sql: String) throws -> Int {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        _ = try statement.step()
        return statement.int(0)
    }

    /// The first column of the first row of a one-text query, the same way.
    func text(_ sql: String) throws -> String {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        _ = try statement.step()
        return statement.string(0)
    }
}
