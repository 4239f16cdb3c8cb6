#if canImport(Glibc)
import Glibc
#endif

extension SQLiteStore {
    /// Room the data folder's filesystem must keep: below it writes are refused and readiness is false. On a full disk a one-page
    /// probe can still commit into WAL space already allocated while real writes (an evaluation, a batch of
    /// labels) need new pages and fail, so readiness would flap to ready while every write fails.
    public static let minimumFreeBytes: UInt64 = 8 << 20

    /// Bytes an unprivileged writer may still use on the database's filesystem; nil if it cannot be asked.
    public func availableBytes() -> UInt64? { Self.availableBytes(at: path) }

    /// The data folder and database files (the database, its -wal and -shm) this process may not write, by path:
    /// what to name when writes fail with room on the disk. Files that do not exist are not listed.
    public func unwritableFiles() -> [String] {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        return [folder.isEmpty ? "." : folder, path, path + "-wal", path + "-shm"].filter { candidate in
            access(candidate, W_OK) != 0 && errno != ENOENT
        }
    }

    /// The database files (the database, its -wal and -shm) that users other than the owner may read or write:
    /// the service makes them 0600, but a restore (`sqlite3 .backup` writes 0644) may not.
    public func filesOpenToOthers() -> [String] {
        [path, path + "-wal", path + "-shm"].filter { candidate in
            var status = stat()
            return stat(candidate, &status) == 0 && status.st_mode & 0o077 != 0
        }
    }

    /// The database file or WAL that was deleted, moved or replaced since the store opened it, if one was: writes
    /// are refused from then on, as nothing written to the open files would survive a restart.
    public func replacedFile() -> String? {
        guard case .databaseReplaced(let path) = identity.problem() else { return nil }
        return path
    }

    /// What SQLite said when it first found the database file damaged while the store had it open
    /// (`StoreError.databaseCorrupted`), or nil.
    public func corruptionFound() -> String? {
        corruption.detail
    }

    /// The WAL file's size: below the reserve, what the store's own log holds of the disk (the checkpoint thread
    /// cuts it to nothing once no reader holds it back). Nil when there is none.
    public func walBytes() -> Int64? { Self.fileSize(path + "-wal") }

    static func fileSize(_ path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }

    static func availableBytes(at path: String) -> UInt64? {
        var status = statvfs()
        guard statvfs(path, &status) == 0 else { return nil }
        return UInt64(status.f_bavail) * UInt64(status.f_frsize)
    }
}
