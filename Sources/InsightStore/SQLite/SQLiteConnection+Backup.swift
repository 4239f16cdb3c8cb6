#if canImport(Glibc)
import Glibc
#endif
import CSQLite
import InsightModel

extension SQLiteConnection {
    /// What `backUp(to:)` wrote.
    public struct BackupSummary: Equatable, Sendable {
        public var bytes: Int
        public var schemaVersion: Int
    }

    /// Copies this connection's database into a new file at `path` with SQLite's online backup, in one step: one
    /// read transaction, so the copy is a consistent snapshot of the database and its WAL as of one commit, while
    /// the service goes on writing (a reader never blocks a WAL writer). Copying the files with `cp` instead can
    /// pair a database with a WAL from another moment.
    ///
    /// The file is created 0600 (it holds key hashes and subject hashes) and must not exist. The copy is then read
    /// back with `PRAGMA quick_check` before it is called a backup; on any failure the file is removed.
    public func backUp(to path: String) throws(SQLiteError) -> BackupSummary {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            var error = SQLiteError(connection: nil, code: SQLITE_CANTOPEN, context: "create \(path)")
            error.message = FileErrorText.reason(code: errno)
            throw error
        }
        // The umask can only take bits away; set the mode so that the intent does not depend on it.
        _ = fchmod(descriptor, 0o600)
        close(descriptor)
        var kept = false
        defer {
            if !kept {
                for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
            }
        }
        var destination: OpaquePointer?
        let opened = sqlite3_open_v2(path, &destination, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard opened == SQLITE_OK, let destination else {
            let error = SQLiteError(connection: destination, code: opened, context: "open \(path)")
            sqlite3_close_v2(destination)
            throw error
        }
        defer { sqlite3_close_v2(destination) }
        guard let backup = sqlite3_backup_init(destination, "main", handle, "main") else {
            throw SQLiteError(connection: destination, code: sqlite3_errcode(destination), context: "back up into \(path)")
        }
        var code: Int32
        var waitedMilliseconds = 0
        repeat {
            // All pages in one step: the copy is one snapshot. BUSY or LOCKED means the source could not start its
            // read transaction yet (a writer restarting the WAL): wait a little, as the connection's busy timeout would.
            code = sqlite3_backup_step(backup, -1)
            if code == SQLITE_BUSY || code == SQLITE_LOCKED {
                guard waitedMilliseconds < 5000 else { break }
                usleep(10_000)
                waitedMilliseconds += 10
            }
        } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
        let finished = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finished == SQLITE_OK else {
            let failing = code == SQLITE_DONE ? finished : code
            // The source's error when the read failed, the destination's when the write did.
            let source = sqlite3_errcode(handle) == SQLITE_OK ? nil : handle
            var error = SQLiteError(connection: source ?? destination, code: failing, context: "back up into \(path)")
            if failing == SQLITE_BUSY || failing == SQLITE_LOCKED {
                error.message = "the database stayed locked for 5 s"
            }
            throw error
        }
        let check = try Self.firstText(destination, "PRAGMA quick_check", path: path)
        guard check == "ok" else {
            var error = SQLiteError(connection: nil, code: SQLITE_CORRUPT, context: "check the copy \(path)")
            error.message = "PRAGMA quick_check says: \(check ?? "nothing")"
            throw error
        }
        let version = Int(try Self.firstText(destination, "PRAGMA user_version", path: path) ?? "0") ?? 0
        // The copy carries the source's WAL flag: fold any log its check made back into the file, so that the
        // backup is the one file.
        _ = sqlite3_wal_checkpoint_v2(destination, "main", SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        var status = stat()
        let bytes = stat(path, &status) == 0 ? Int(status.st_size) : 0
        let synced = open(path, O_RDONLY | O_CLOEXEC)
        if synced >= 0 {
            _ = fsync(synced)
            close(synced)
        }
        kept = true
        return BackupSummary(bytes: bytes, schemaVersion: version)
    }

    private static func firstText(_ connection: OpaquePointer, _ sql: String, path: String) throws(SQLiteError) -> String? {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else {
            throw SQLiteError(connection: connection, code: prepared, context: "\(sql) on \(path)")
        }
        defer { sqlite3_finalize(statement) }
        let stepped = sqlite3_step(statement)
        guard stepped == SQLITE_ROW else {
            if stepped == SQLITE_DONE { return nil }
            throw SQLiteError(connection: connection, code: stepped, context: "\(sql) on \(path)")
        }
        return sqlite3_column_text(statement, 0).map { String(cString: $0) }
    }
}
