/// A data folder's database opened only to read: no writer, no checkpointer, no schema migration, and nothing
/// created. For the commands that only read (`export`, `report`, `keys list`), so that they work on a read-only
/// backup or snapshot and for an account that may read the files but not write them. The caller checks the schema
/// version first (`SQLiteStore.storedSchemaVersion`): an older database is not migrated here.
public final class SQLiteReadOnlyStore: DatabaseReading {
    public let path: String
    private let readers: ReaderPool

    /// Fails when the database cannot be opened for reading (a missing file is not created).
    public init(directory: String) throws {
        path = directory + "/" + SQLiteStore.fileName
        if let foreign = WALOwnership.foreignWAL(databasePath: path) {
            throw StoreError.foreignWAL(path: path + "-wal", databaseID: foreign.database, walID: foreign.wal)
        }
        readers = ReaderPool(path: path, maximumIdle: 1)
        try readers.withReader { _ in }
    }

    public func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try readers.withReader(body)
    }
}
