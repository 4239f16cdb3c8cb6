import InsightCrypto
import InsightModel
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The embedded store: one SQLite database in WAL mode under the data folder. Writes go through one group committer
/// and return only once committed (evaluation records may be committed by the event loop that made them, the rest
/// by the writer thread); reads use a pool of read-only connections.
public final class SQLiteStore: Sendable {
    public static let fileName = "trust-insights.sqlite"

    public let path: String
    let writer: GroupCommitter
    /// The current batch's evaluated insights, folded into `metrics_daily` once per batch.
    let evaluationCounts: EvaluationCountTally
    let readers: ReaderPool
    private let checkpointer: Checkpointer
    /// The database and WAL this store opened: a batch is refused once either path names another file (or none).
    let identity: DatabaseFileIdentity
    let corruption: DatabaseCorruption
    /// What the last failed write was told, for the log.
    private let lastWriteFailure: LastWriteFailure
    /// Evaluation records wait for `commitHeldWrites()` before they are committed.
    let holdsEvaluations: Bool

    /// Opens (creating if needed) the store in `directory` and brings its schema up to date.
    /// `commitWindowMicroseconds`: see `GroupCommitter`; the service sets it, one-off commands leave it at 0.
    ///
    /// `holdsEvaluations`: `record(_:)` holds each evaluation until the caller commits the held ones itself with
    /// `commitHeldWrites()`, so a burst of them shares one commit; no time limit applies (a write that is not held
    /// takes them along, and a closing store commits them). The service's event loops commit at the end of every
    /// pass (`GroupCommitter(releasersCommit:)`).
    ///
    /// `checkpointFailing` is told when the writer's checkpoints start failing with an error (the database file
    /// refusing writes: the WAL then grows until the disk reserve stops writes) and, with nil, when one works again.
    public init(
        directory: String, fullSync: Bool = false, commitWindowMicroseconds: Int = 0, holdsEvaluations: Bool = false,
        checkpointFailing: @escaping @Sendable (_ error: String?) -> Void = { _ in },
        filesReplaced: @escaping @Sendable () -> Void = {},
        migrating: (_ from: Int, _ to: Int) -> Void = { _, _ in }
    ) throws {
        self.holdsEvaluations = holdsEvaluations
        try Self.createPrivateDirectory(directory)
        path = directory + "/" + Self.fileName
        // Created 0600 before SQLite opens it; SQLite gives the -wal and -shm files the same mode.
        let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd) }
        try WALOwnership.check(databasePath: path)
        let connection = try SQLiteConnection(path: path, fullSync: fullSync)
        try Schema.migrator.migrate(connection, willMigrate: migrating)
        try Self.stampApplicationID(connection)
        // The one writer keeps a large page cache: label and insight lookups by random UUID touch pages all over
        // the indexes, and re-reading them from the WAL on every batch cost more than the inserts themselves.
        try connection.execute("PRAGMA cache_size = -65536")
        // Temporary storage in memory: the journal of a savepoint (which SQLite otherwise spills to a file past
        // 64 KiB: a file created, written and unlinked every other batch, seen with strace) and the label batch's
        // small GROUP BY b-trees. Both live only until the batch commits.
        try connection.execute("PRAGMA temp_store = MEMORY")
        // Checkpoints run on their own thread (see Checkpointer); the WAL file is cut back to this size when the
        // writer restarts it, so a burst does not leave a large file behind.
        try connection.execute("PRAGMA wal_autocheckpoint = 0")
        try connection.execute("PRAGMA journal_size_limit = 67108864")
        connection.keepWALFilesOnClose()
        // The schema read and brought up to date: the files are this database's, and closing may fold the WAL in.
        connection.allowCheckpointOnClose()
        // Writes stop short of filling the disk: the reserve is what lets the checkpointer (which needs room in the
        // database file) make progress, and keeps a write from failing half-way through the WAL.
        let databasePath = path
        let evaluationCounts = EvaluationCountTally()
        self.evaluationCounts = evaluationCounts
        let corruption = DatabaseCorruption()
        self.corruption = corruption
        let lastWriteFailure = LastWriteFailure()
        self.lastWriteFailure = lastWriteFailure
        let hooks = GroupCommitter.BatchHooks(
            beforeCommit: { try evaluationCounts.flush(into: $0) }, afterRollback: { evaluationCounts.discard() },
            failed: { error in
                corruption.note(error)
                lastWriteFailure.note(error)
            })
        let identity = DatabaseFileIdentity(databasePath: path)
        self.identity = identity
        let replacedSeen = Atomic<Bool>(false)
        let checkpointer = try Checkpointer(path: path, filesIntact: {
            let intact = identity.problem() == nil
            // Told once each time the files go from intact to replaced: the service says so in its log, and stops
            // acknowledging writes, even with no write coming to find out.
            if replacedSeen.exchange(!intact, ordering: .relaxed) != !intact && !intact { filesReplaced() }
            return intact
        }, walHoldsTheReserve: {
            guard let available = Self.availableBytes(at: databasePath), available < Self.minimumFreeBytes else { return false }
            return (Self.fileSize(databasePath + "-wal") ?? 0) > 0
        })
        self.checkpointer = checkpointer
        writer = GroupCommitter(
            connection: connection, commitWindowMicroseconds: commitWindowMicroseconds,
            releasersCommit: holdsEvaluations, hooks: hooks,
            walGrowing: { checkpointer.nudge() }, checkpointFailing: checkpointFailing
        ) {
            if let replaced = identity.problem() { return replaced }
            if let detail = corruption.detail { return StoreError.databaseCorrupted(detail: detail) }
            guard let available = Self.availableBytes(at: databasePath), available < Self.minimumFreeBytes else { return nil }
            return StoreError.diskFull(availableBytes: available)
        }
        readers = ReaderPool(path: path)
        checkpointer.start()
    }

    deinit {
        checkpointer.stop()
    }

    /// Runs `write` in the next group commit and returns once it is durable.
    public func write(_ write: @escaping GroupCommitter.Write) throws {
        try writer.perform(write)
    }

    public func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        do {
            return try readers.withReader(body)
        } catch {
            corruption.note(error)
            throw error
        }
    }

    /// True when the disk has room (`minimumFreeBytes`) and a trivial write commits: what readiness reports.
    public func isWritable() -> Bool {
        var failure: String?
        if let available = availableBytes(), available < Self.minimumFreeBytes {
            failure = StoreError.diskFull(availableBytes: available).description
        } else {
            // The row must change: SQLite skips writing a row rewritten with the same bytes, and a commit with nothing
            // in it touches no file, so such a probe passed on storage that refused every real write (an immutable WAL).
            do {
                try writer.perform { connection in
                    try connection.execute(
                        "INSERT INTO generation (name, value) VALUES ('storageCheck', 1) ON CONFLICT (name) DO UPDATE SET value = value + 1")
                }
            } catch {
                failure = "\(error)"
            }
        }
        if let failure { lastWriteFailure.note(failure) }
        return failure == nil
    }

    /// What the last failed write (a batch, or `isWritable()`'s probe) was told: the free-space reserve, or SQLite's
    /// own words (`database is locked` when another process holds the database). The `storage not writable` line
    /// named no cause when another process held the database (observability probe, 6 December).
    public func lastWriteFailureReason() -> String? { lastWriteFailure.reason }

    /// Folds the WAL into the database file; called at shutdown. Nil when it did; otherwise why not, for the log:
    /// the commits are safe in the WAL either way, but a folder copied file by file then needs the WAL with it.
    ///
    /// The background checkpointer is stopped first, for good: a passive checkpoint of its own still running made
    /// this one report busy, as if a reader held the WAL, after 3 to 4 of 31 clean drains under traffic
    /// (operator probe). The store still writes afterwards; its WAL is then folded back by the writer alone.
    @discardableResult
    public func checkpoint() -> String? {
        checkpointer.stop()
        // With its WAL index replaced, this connection's index may not know frames another program appended by the
        // new one, and a checkpoint that starts the WAL over would drop them. Left alone, the WAL keeps every frame,
        // and the next start rebuilds the index from it. (A replaced database or WAL is still checkpointed: the
        // open files hold the commits, and copying them into the database file is what saves them.)
        if case .databaseReplaced(let path)? = identity.problem(), path.hasSuffix("-shm") {
            return "not checkpointed: \(path) was replaced while the service had it mapped; the WAL is left whole for the next start to read"
        }
        return writer.withConnection { connection -> String? in
            do {
                return try connection.checkpoint() ? nil : "a reader held part of the WAL back"
            } catch {
                return "\(error)"
            }
        }
    }

    /// Creates the folder and any missing parents; the ones it creates are 0700 (the data is the tenants').
    /// Creates `directory` and any missing parents, each 0700: the data folder holds what no other user may read.
    public static func createPrivateDirectory(_ directory: String) throws {
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") where component != "." {
            path += "/" + component
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw StoreError.cannotCreateDirectory(path: path, reason: FileErrorText.reason(code: errno))
            }
        }
    }
}

public enum StoreError: Error, Equatable, CustomStringConvertible {
    case cannotCreateDirectory(path: String, reason: String)
    case notFound
    /// Less than `SQLiteStore.minimumFreeBytes` left on the data folder's filesystem: writes are refused.
    case diskFull(availableBytes: UInt64)
    /// The database or its WAL was deleted, moved or replaced while the store had it open: what it writes now would be
    /// lost. It ends when that same file is back at its path (renamed back), or at a restart with the database restored.
    case databaseReplaced(path: String)
    /// SQLite found the database file damaged while the store had it open (`DatabaseCorruption`): writes are refused
    /// until a restart, which checks the file.
    case databaseCorrupted(detail: String)
    /// The `-wal` beside the database carries another database's ID in its page 1 (`WALOwnership`).
    case foreignWAL(path: String, databaseID: UInt32, walID: UInt32)
    /// The tenant has keys or people's choices in the database but no row in the tenant table, so its subject key is
    /// lost (a hand-edited or damaged database).
    case tenantWithoutSubjectKey(tenant: String)

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): "cannot create \(path): \(reason)"
        case .notFound: "not found"
        case .diskFull(let available): "the data folder's disk has \(available) bytes free, below the \(SQLiteStore.minimumFreeBytes)-byte reserve"
        case .databaseReplaced(let path): "\(path) was deleted, moved or replaced while the service had it open"
        case .databaseCorrupted(let detail): "the database file was found damaged while the service had it open (\(detail))"
        case .foreignWAL(let path, let database, let wal):
            "\(path) is another database's write-ahead log (ID \(Self.hex(wal)) in its page 1, \(Self.hex(database)) in the "
                + "database file's): a -wal file copied in beside this database, whose pages SQLite would read as this "
                + "database's. Nothing was changed. Move it out of the folder (keep it: it may hold another folder's latest "
                + "commits) and start again: the database file holds its own commits up to its last checkpoint"
        case .tenantWithoutSubjectKey(let tenant):
            "the tenant \(tenant) has keys or opt-outs in the database but no row in its tenant table, so its subject key "
                + "is lost; a new one would not match the subject refs kept hashed under it, and the people who opted out "
                + "would be evaluated again. No key was created: restore the database from a backup"
        }
    }
}

extension StoreError {
    fileprivate static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}

extension SQLiteStore {
    /// Gives a database its random ID once (`PRAGMA application_id`, never changed after), by which `WALOwnership`
    /// tells a `-wal` file of another database. Databases made before it get theirs at their next start.
    ///
    /// Read and written under the write lock (`BEGIN IMMEDIATE`): a `serve` and a `keys create` starting together on
    /// an older database each read 0 and wrote an ID of their own (regression probe, 7 December), and a crash between
    /// the two commits could have left the file with one and the WAL with the other, which the check then refuses.
    static func stampApplicationID(_ connection: SQLiteConnection) throws {
        try connection.transaction {
            let statement = try connection.statement("PRAGMA application_id")
            _ = try statement.step()
            let current = statement.int(0)
            statement.reset()
            guard current == 0 else { return }
            var id: Int32 = 0
            while id == 0 {
                let bytes = SecureRandom.bytes(4)
                var value: UInt32 = 0
                for byte in bytes { value = value << 8 | UInt32(byte) }
                id = Int32(bitPattern: value)
            }
            try connection.execute("PRAGMA application_id = \(id)")
        }
    }

    /// The schema version this build writes and reads.
    public static var schemaVersion: Int { Schema.migrator.migrations.last?.version ?? 0 }

    /// The schema version of the database in `directory`, read without writing anything (a read-only connection):
    /// the commands that write look before opening the store, which would migrate it under a server of an older
    /// release. (The commands that only read ask their `SQLiteReadOnlyStore`.)
    public static func storedSchemaVersion(inDirectory directory: String) throws -> Int {
        let path = directory + "/" + fileName
        try WALOwnership.check(databasePath: path)
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        return try Schema.migrator.currentVersion(connection)
    }
}
