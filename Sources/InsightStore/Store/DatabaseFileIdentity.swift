#if canImport(Glibc)
import Glibc
#endif

/// Which files the store opened, by device and inode, so a database or WAL deleted, moved or replaced under a running
/// service is noticed: SQLite goes on writing to the open (now unlinked) files and every commit succeeds, to be lost
/// at the next start, which finds no database or an older one.
struct DatabaseFileIdentity: Sendable, Equatable {
    let databasePath: String
    let database: FileIdentity?
    /// The WAL exists once the database has been opened in WAL mode, and SQLite keeps it (truncated, not deleted)
    /// while connections are open.
    let wal: FileIdentity?
    /// The WAL index, which every process using the database maps: deleted under a running service, the next
    /// process to open the database (a `keys` command) makes a new one the service does not see, and the two write
    /// the WAL each by its own index: acknowledged writes lost and the database corrupted (storage probe,
    /// 5 December).
    let sharedMemory: FileIdentity?

    init(databasePath: String) {
        self.databasePath = databasePath
        database = FileIdentity(path: databasePath)
        wal = FileIdentity(path: databasePath + "-wal")
        sharedMemory = FileIdentity(path: databasePath + "-shm")
    }

    /// What is no longer the file the store opened, or nil when each still is.
    func problem() -> StoreError? {
        if let database, FileIdentity(path: databasePath) != database {
            return .databaseReplaced(path: databasePath)
        }
        if let wal, FileIdentity(path: databasePath + "-wal") != wal {
            return .databaseReplaced(path: databasePath + "-wal")
        }
        if let sharedMemory, FileIdentity(path: databasePath + "-shm") != sharedMemory {
            return .databaseReplaced(path: databasePath + "-shm")
        }
        return nil
    }
}
