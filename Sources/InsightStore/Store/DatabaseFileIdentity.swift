#if canImport(Glibc)
import Glibc
#endif

/// Which files the store opened, by device and inode, so a database or WAL deleted, moved or replaced under a running
/// service is noticed: SQLite goes on writing to the open (now unlinked) files and every commit succeeds, to be lost
/// at the next start, which finds no database or an older one.
struct DatabaseFileIdentity: Sendable, Equatable {
    struct FileID: Sendable, Equatable {
        let device: UInt64
        let inode: UInt64

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    let databasePath: String
    let database: FileID?
    /// The WAL exists once the database has been opened in WAL mode, and SQLite keeps it (truncated, not deleted)
    /// while connections are open.
    let wal: FileID?
    /// The WAL index, which every process using the database maps: deleted under a running service, the next
    /// process to open the database (a `keys` command) makes a new one the service does not see, and the two write
    /// the WAL each by its own index: acknowledged writes lost and the database corrupted (storage probe,
    /// 5 December).
    let sharedMemory: FileID?

    init(databasePath: String) {
        self.databasePath = databasePath
        database = FileID(path: databasePath)
        wal = FileID(path: databasePath + "-wal")
        sharedMemory = FileID(path: databasePath + "-shm")
    }

    /// What is no longer the file the store opened, or nil when both still are.
    func problem() -> StoreError? {
        if let database, FileID(path: databasePath) != database {
            return .databaseReplaced(path: databasePath)
        }
        if let wal, FileID(path: databasePath + "-wal") != wal {
            return .databaseReplaced(path: databasePath + "-wal")
        }
        if let sharedMemory, FileID(path: databasePath + "-shm") != sharedMemory {
            return .databaseReplaced(path: databasePath + "-shm")
        }
        return nil
    }
}
