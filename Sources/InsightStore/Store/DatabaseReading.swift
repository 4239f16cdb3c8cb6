/// Reads the database on a read-only connection. The serving store and a folder opened only to read
/// (`SQLiteReadOnlyStore`) share the queries written against this, so an export reads what the service reads.
public protocol DatabaseReading: Sendable {
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T
}

extension SQLiteStore: DatabaseReading {}

extension DatabaseReading {
    /// True once any evaluation has been recorded: from then on, answers signed with the folder's keys exist.
    public func hasEvaluations() throws -> Bool {
        try read { connection in
            try connection.statement("SELECT 1 FROM evaluation LIMIT 1").step()
        }
    }
}
