#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// One SQLite connection, opened with SQLITE_OPEN_NOMUTEX: it must be used by one thread at a time, which its
/// owners guarantee (the group committer's lock, or a reader pool's checkout). Hence `@unchecked Sendable`.
public final class SQLiteConnection: @unchecked Sendable {
    let handle: OpaquePointer
    private var statementCache: [String: SQLiteStatement] = [:]
    /// Statements of SQL held in static strings, keyed by the text's address: finding one costs no hashing of the
    /// text, which for the writer's inserts (a few hundred bytes each, several per evaluation) showed in profiles.
    private var staticStatementCache: [UInt: SQLiteStatement] = [:]
    /// Frames in the WAL after this connection's last commit, once `trackWALFrames()` is on.
    private(set) var framesInWAL: Int = 0

    public enum Mode: Sendable { case readWrite, readOnly }

    /// SQLite's process-wide settings, made once before the first connection opens: `sqlite3_config` works only
    /// before SQLite initialises. Without memory statistics, SQLite's allocations skip a process-wide mutex and
    /// the counting; nothing here reads them (`sqlite3_memory_used` would then report 0).
    static let libraryConfigured: Bool = ti_sqlite3_disable_memory_statistics() == SQLITE_OK

    /// Opens (creating if needed) the database at `path` in WAL mode.
    ///
    /// `synchronous=NORMAL` in WAL mode makes a committed transaction survive the process being killed (the WAL
    /// frames are in the kernel's page cache once `COMMIT` returns); `fullSync` adds an fsync per commit, which is
    /// what surviving a power cut takes.
    public init(path: String, mode: Mode = .readWrite, fullSync: Bool = false, busyTimeoutMilliseconds: Int32 = 5000) throws(SQLiteError) {
        _ = Self.libraryConfigured
        var pointer: OpaquePointer?
        var flags = (mode == .readWrite ? (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) : SQLITE_OPEN_READONLY)
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var location = path
        if mode == .readOnly {
            switch Self.readOnlyOpening(path: path) {
            case .shared: break
            case .immutable:
                location = Self.immutableURI(path: path)
                flags |= SQLITE_OPEN_URI
            case .refused(let reason):
                var error = SQLiteError(connection: nil, code: SQLITE_CANTOPEN, context: "open \(path)")
                error.message = reason
                throw error
            }
        }
        let code = sqlite3_open_v2(location, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            let error = SQLiteError(connection: pointer, code: code, context: "open \(path)")
            sqlite3_close_v2(pointer)
            throw error
        }
        // SQLite opens a file this user cannot write read-only without a word, and the first write fails much later
        // (for the service: its first evaluation). Said at open, naming the file, it is a permissions fix.
        if mode == .readWrite && sqlite3_db_readonly(pointer, "main") == 1 {
            sqlite3_close_v2(pointer)
            var error = SQLiteError(connection: nil, code: SQLITE_READONLY, context: "open \(path)")
            // A read-only mount (a snapshot, a restored backup) is no permissions problem: said as what it is.
            var fileSystem = statvfs()
            let readOnlyMount = statvfs(path, &fileSystem) == 0 && fileSystem.f_flag & UInt(ST_RDONLY) != 0
            error.message = readOnlyMount
                ? "the file system is read-only (mounted so), and the database is opened for writing"
                : "the file (or its folder, for the -wal and -shm files) is not writable by this user"
            throw error
        }
        // The same for a -wal or -shm file left by another user (a restore done as root, say): SQLite opens the
        // database read-write, and every write then fails with a disk I/O error that names neither file.
        if mode == .readWrite, let file = ["-wal", "-shm"].map({ path + $0 }).first(where: { access($0, W_OK) != 0 && errno != ENOENT }) {
            sqlite3_close_v2(pointer)
            var error = SQLiteError(connection: nil, code: SQLITE_READONLY, context: "open \(file)")
            error.message = "the file is not writable by this user (its owner or mode differs from the database's)"
            throw error
        }
        // Before anything reads the file: a WAL beside it that belongs to another database (copied in with a backup)
        // reads as damage, and a connection closing on that error would checkpoint the foreign pages into this
        // database and delete the WAL, destroying both (fault probe, 7 December). Closing writes nothing until the
        // opener says the database is sound (`allowCheckpointOnClose()`).
        ti_sqlite3_checkpoint_on_close(pointer, 0)
        handle = pointer
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        if mode == .readWrite {
            // Turning a new database's rollback journal into a WAL takes an exclusive lock, and SQLite answers busy
            // at once, without its busy handler, when another connection opening the same new file holds a lock it
            // would wait on (two processes' first start in one folder): tried again within the same timeout.
            var waited: Int32 = 0
            while true {
                do {
                    try execute("PRAGMA journal_mode=WAL")
                    break
                } catch where error.code == SQLITE_BUSY && waited < busyTimeoutMilliseconds {
                    usleep(2000)
                    waited += 2
                }
            }
        }
        try execute(fullSync ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL")
        try execute("PRAGMA foreign_keys=ON")
    }

    deinit {
        statementCache.removeAll()
        staticStatementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no parameters and return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError(connection: handle, code: code, context: "execute") }
    }

    /// A prepared statement, cached per SQL text: hot paths prepare once and rebind.
    public func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statementCache[sql] {
            cached.reset()
            return cached
        }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        statementCache[sql] = statement
        return statement
    }

    /// A prepared statement for SQL in a `StaticString` (a named constant), cached by the text's address. For hot
    /// paths: a string literal passed directly picks the `String` overload.
    public func statement(_ sql: StaticString) throws(SQLiteError) -> SQLiteStatement {
        guard sql.hasPointerRepresentation else { return try statement(sql.description) }
        let key = UInt(bitPattern: sql.utf8Start)
        if let cached = staticStatementCache[key] {
            cached.reset()
            return cached
        }
        let statement = try SQLiteStatement(connection: self, sql: sql.description)
        staticStatementCache[key] = statement
        return statement
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    public func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Resets every statement still part-way through its rows. A statement left stepping keeps its read transaction
    /// open, so a pooled reader would go on seeing the database as it was then (keys issued later unknown, new
    /// evaluations not found).
    func resetActiveStatements() {
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
            statement = sqlite3_next_stmt(handle, current)
        }
    }

    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Keeps the WAL and its shared-memory index on disk when this connection closes last (SQLite deletes them
    /// otherwise). Without the index SQLite cannot even read a WAL database, and creating it needs free space: a
    /// service restarted on a full disk could then not start at all, instead of serving reads until space returns.
    public func keepWALFilesOnClose() {
        var keep: Int32 = 1
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &keep)
    }

    /// Lets this connection, when it closes last, checkpoint the WAL into the database file as SQLite does by default.
    /// For an opener that has read the database (its schema) and found it sound; until then a close writes nothing.
    public func allowCheckpointOnClose() {
        ti_sqlite3_checkpoint_on_close(handle, 1)
    }

    /// Keeps `framesInWAL` current through SQLite's WAL hook, which runs inside each commit on this connection.
    /// It replaces the automatic checkpoint's hook, so it suits a connection whose checkpoints run elsewhere.
    func trackWALFrames() {
        sqlite3_wal_hook(handle, { context, _, _, frames in
            // The hook runs inside sqlite3_step on this connection, so the connection is alive and on this thread.
            guard let context else { return SQLITE_OK }
            Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue().framesInWAL = Int(frames)
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Writes the WAL back into the main database file and empties it (used at shutdown, so that the folder is
    /// whole in the database file). False when a reader held back part of the WAL, which then stays in the log.
    @discardableResult
    public func checkpoint() throws(SQLiteError) -> Bool {
        let statement = try self.statement("PRAGMA wal_checkpoint(TRUNCATE)")
        defer { statement.reset() }
        // One row: busy (1 when the checkpoint could not finish), the WAL's frames, the frames copied back.
        guard try statement.step() else { return true }
        return statement.int(0) == 0
    }
}
