/// A data folder's database opened only to read: no writer, no checkpointer, no schema migration, and nothing
/// created. For the commands that only read (`export`, `report`, `keys list`), so that they work on a read-only
/// backup or snapshot and for an account that may read the files but not write them. The caller checks
/// `schemaVersion()` before reading anything else: an older database is not migrated here.
public final class SQLiteReadOnlyStore: DatabaseReading {
    public let path: String
    private let readers: ReaderPool

    /// Fails when the database cannot be opened for reading (a missing file is not created).
    public init(directory: String) throws {
        path = directory + "/" + SQLiteStore.fileName
        try WALOwnership.check(databasePath: path)
        readers = ReaderPool(path: path, maximumIdle: 1)
        try readers.withReader { _ in }
    }

    /// The database's schema version, read through this store's connection: the `-wal` was checked once, at init.
    public func schemaVersion() throws -> Int {
        try readers.withReader { try Schema.migrator.currentVersion($0) }
    }

    public func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try readers.withReader(body)
    }
}
