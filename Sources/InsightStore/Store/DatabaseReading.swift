/// Reads the database on a read-only connection. The serving store and a folder opened only to read
/// (`SQLiteReadOnlyStore`) share the queries written against this, so an export reads what the service reads.
public protocol DatabaseReading: Sendable {
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T
}

extension SQLiteStore: DatabaseReading {}
