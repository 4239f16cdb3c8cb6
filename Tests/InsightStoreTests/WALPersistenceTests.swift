import Foundation
import Testing
@testable import InsightStore

/// The store keeps its WAL and shared-memory index when it closes: SQLite cannot open a WAL database without the
/// index, and on a full disk it could not create one, so a restart there would fail instead of serving reads.
@Suite struct WALPersistenceTests {
    @Test func walAndIndexFilesOutliveTheStore() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try SQLiteStore(directory: directory.path)
            #expect(store.isWritable())
            store.checkpoint()
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.contains(SQLiteStore.fileName + "-wal"))
        #expect(files.contains(SQLiteStore.fileName + "-shm"))
        // And the folder opens again as usual.
        #expect(try SQLiteStore(directory: directory.path).isWritable())
    }

    /// A refused open writes neither the database file nor its WAL. A `-wal` file of another database copied in
    /// beside this one reads as damage, and the connection closing on that error checkpointed the foreign pages into
    /// the database and deleted the WAL, destroying both (fault probe, 7 December). Here the refusal is a schema
    /// newer than the binary, read from a WAL frame: before, the close folded that WAL into the file and deleted it.
    @Test func aRefusedOpenLeavesTheDatabaseAndItsWALAsTheyWere() throws {
        let source = try TemporaryDirectory()
        let folder = try TemporaryDirectory()
        let writer = try SQLiteConnection(path: source.file("db.sqlite"))
        try writer.execute("CREATE TABLE thing (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        try writer.execute("INSERT INTO thing (name) VALUES ('a'), ('b')")
        try writer.execute("PRAGMA user_version = 999")
        // Copied while the writer is open, so the copy's WAL holds every frame whatever a close would do.
        let database = folder.file(SQLiteStore.fileName)
        try FileManager.default.copyItem(atPath: source.file("db.sqlite"), toPath: database)
        try FileManager.default.copyItem(atPath: source.file("db.sqlite-wal"), toPath: database + "-wal")
        let databaseBefore = try #require(FileManager.default.contents(atPath: database))
        let walBefore = try #require(FileManager.default.contents(atPath: database + "-wal"))
        #expect(walBefore.count > 32, "the WAL holds frames")

        #expect(throws: Migrator.MigrationError.databaseNewerThanBinary(database: 999, binary: SQLiteStore.schemaVersion)) {
            _ = try SQLiteStore(directory: folder.path)
        }
        #expect(FileManager.default.contents(atPath: database) == databaseBefore)
        #expect(FileManager.default.contents(atPath: database + "-wal") == walBefore)
    }
}

/// The shutdown's checkpoint says when it could not fold the whole WAL back, for the log (`checkpoint at shutdown
/// failing`): before, a failure was dropped, and the operator who then copied the database file alone lost commits
/// (found by an operator probe with an immutable database file).
@Suite struct ShutdownCheckpointTests {
    @Test func aCheckpointSaysWhenAReaderHeldPartOfTheWALBack() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        #expect(store.isWritable())
        #expect(store.checkpoint() == nil)
        #expect(store.isWritable())
        let reader = try SQLiteConnection(path: directory.file(SQLiteStore.fileName))
        try reader.execute("BEGIN")
        let snapshot = try reader.statement("SELECT count(*) FROM generation")
        _ = try snapshot.step()
        // The frames written after the reader's snapshot cannot be folded back while it reads (SQLite waits for it
        // for the busy timeout first).
        #expect(store.isWritable())
        #expect(store.checkpoint() == "a reader held part of the WAL back")
        snapshot.reset()
        try reader.execute("COMMIT")
        #expect(store.checkpoint() == nil)
    }

    /// The store's own checkpoint thread is not "a reader": the shutdown checkpoint stops it first. Before, a passive
    /// checkpoint of that thread still running when the drain ended made the shutdown's report busy, and the WAL
    /// stayed unfolded after about one clean stop in five under traffic (operator probe). Here the thread is kept
    /// busy by WALs of a few hundred frames, each followed at once by the shutdown checkpoint.
    @Test func theStoresOwnCheckpointThreadNeverHoldsTheShutdownCheckpointBack() throws {
        let directory = try TemporaryDirectory()
        // Rows of about a kilobyte, rewritten each commit: some 125 pages, so each commit nudges the thread.
        let padding = String(repeating: "x", count: 1000)
        for round in 0..<40 {
            let store = try SQLiteStore(directory: directory.path)
            for _ in 0..<4 {
                try store.write { connection in
                    for index in 0..<500 {
                        try connection.execute(
                            "INSERT INTO generation (name, value) VALUES ('walFill\(index)-\(padding)', 1) ON CONFLICT (name) DO UPDATE SET value = value + 1")
                    }
                }
            }
            #expect(store.checkpoint() == nil, "round \(round)")
        }
    }

    @Test func aCheckpointSaysWhyTheDatabaseFileRefusedIt() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        #expect(store.isWritable())
        let path = directory.file(SQLiteStore.fileName)
        guard ImmutableFlag.set(path, true) else {
            print("ShutdownCheckpointTests: chattr +i is not available here; not checked")
            return
        }
        defer { _ = ImmutableFlag.set(path, false) }
        let failure = store.checkpoint()
        #expect(failure != nil && failure != "a reader held part of the WAL back", "\(String(describing: failure))")
    }
}

/// A -wal or -shm file this process may not write (left by a restore done as another user) stops the store from
/// opening, naming the file, rather than open and fail every write with an I/O error; a running store names such
/// files for the `storage not writable` log. The suite runs as root, whom modes do not stop, so the file is made
/// immutable (`chattr +i`), which stops root too; where the file system or the container does not allow that, the
/// test says so and checks nothing.
@Suite(.serialized) struct UnwritableFileTests {
    @Test func anUnwritableWALFileIsNamedAtOpen() throws {
        let directory = try TemporaryDirectory()
        do { _ = try SQLiteStore(directory: directory.path) }
        let wal = directory.file(SQLiteStore.fileName + "-wal")
        guard ImmutableFlag.set(wal, true) else {
            print("UnwritableFileTests: chattr +i is not available here; not checked")
            return
        }
        defer { _ = ImmutableFlag.set(wal, false) }
        let error = #expect(throws: SQLiteError.self) { _ = try SQLiteStore(directory: directory.path) }
        #expect(error.map { "\($0)" }?.contains(wal) == true, "\(String(describing: error))")
        #expect(error.map { "\($0)" }?.contains("not writable by this user") == true)
    }

    @Test func aRunningStoreNamesItsUnwritableFiles() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        #expect(store.unwritableFiles().isEmpty)
        let shm = directory.file(SQLiteStore.fileName + "-shm")
        guard ImmutableFlag.set(shm, true) else {
            print("UnwritableFileTests: chattr +i is not available here; not checked")
            return
        }
        defer { _ = ImmutableFlag.set(shm, false) }
        #expect(store.unwritableFiles() == [shm])
    }

    /// Before, the readiness probe rewrote a row with its own value, which SQLite does not write at all: it passed
    /// against a WAL nothing could be appended to, and /readyz turned ready while every evaluation failed.
    @Test func theStorageCheckFailsWhileTheWALCannotBeWritten() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        #expect(store.isWritable())
        let wal = directory.file(SQLiteStore.fileName + "-wal")
        guard ImmutableFlag.set(wal, true) else {
            print("UnwritableFileTests: chattr +i is not available here; not checked")
            return
        }
        defer { _ = ImmutableFlag.set(wal, false) }
        #expect(!store.isWritable())
        #expect(!store.isWritable())
        _ = ImmutableFlag.set(wal, false)
        #expect(store.isWritable())
    }
}

/// `WALOwnership` refuses a WAL only where it cannot be this database's: its last committed page 1 carries another
/// non-zero application ID than the database file's. Real WALs, written by SQLite.
@Suite struct WALOwnershipTests {
    /// A database of one table whose WAL holds page 1 with `id`, copied (database file and WAL) into `folder`
    /// as `name` while its connection is open.
    private static func database(id: Int32, checkpointed: Bool, rows: Int, into folder: TemporaryDirectory, as name: String) throws {
        let source = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: source.file("db.sqlite"))
        try connection.execute("PRAGMA wal_autocheckpoint = 0")
        try connection.execute("CREATE TABLE t (x TEXT); PRAGMA application_id = \(id)")
        if checkpointed { try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        for row in 0..<rows { try connection.execute("INSERT INTO t VALUES ('\(row)-\(String(repeating: "x", count: 500))')") }
        try FileManager.default.copyItem(atPath: source.file("db.sqlite"), toPath: folder.file(name))
        try FileManager.default.copyItem(atPath: source.file("db.sqlite-wal"), toPath: folder.file(name + "-wal"))
    }

    @Test func aWALOfAnotherIDIsForeignAndOneOfTheSameOrOfNoneIsNot() throws {
        let folder = try TemporaryDirectory()
        try Self.database(id: 0x1111_1111, checkpointed: true, rows: 0, into: folder, as: "a.sqlite")
        try Self.database(id: 0x2222_2222, checkpointed: false, rows: 40, into: folder, as: "b.sqlite")
        // Its own WAL: the same ID.
        try Self.database(id: 0x1111_1111, checkpointed: true, rows: 40, into: folder, as: "own.sqlite")
        #expect(WALOwnership.foreignWAL(databasePath: folder.file("own.sqlite")) == nil)
        #expect(WALOwnership.lastCommittedApplicationID(walPath: folder.file("own.sqlite-wal")) == 0x1111_1111)

        // b's WAL beside a's database.
        try FileManager.default.removeItem(atPath: folder.file("a.sqlite-wal"))
        let foreign = try #require(FileManager.default.contents(atPath: folder.file("b.sqlite-wal")))
        try foreign.write(to: URL(fileURLWithPath: folder.file("a.sqlite-wal")))
        let found = try #require(WALOwnership.foreignWAL(databasePath: folder.file("a.sqlite")))
        #expect(found.database == 0x1111_1111 && found.wal == 0x2222_2222)

        // A database without an ID (older than the stamp, or another program's) tells nothing.
        try Self.database(id: 0, checkpointed: true, rows: 0, into: folder, as: "plain.sqlite")
        try FileManager.default.removeItem(atPath: folder.file("plain.sqlite-wal"))
        try foreign.write(to: URL(fileURLWithPath: folder.file("plain.sqlite-wal")))
        #expect(WALOwnership.foreignWAL(databasePath: folder.file("plain.sqlite")) == nil)
        // Nor does a missing or empty WAL, or a database file that is not one.
        #expect(WALOwnership.foreignWAL(databasePath: folder.file("missing.sqlite")) == nil)
        try Data().write(to: URL(fileURLWithPath: folder.file("a.sqlite-wal")))
        #expect(WALOwnership.foreignWAL(databasePath: folder.file("a.sqlite")) == nil)
    }

    /// Only frames SQLite would read count: a page 1 in a frame whose checksum fails, or after the last commit, is
    /// not read, so it cannot refuse the WAL.
    @Test func framesSQLiteWouldNotReadAreNotCounted() throws {
        let folder = try TemporaryDirectory()
        try Self.database(id: 0x3333_3333, checkpointed: false, rows: 0, into: folder, as: "c.sqlite")
        let wal = try #require(FileManager.default.contents(atPath: folder.file("c.sqlite-wal")))
        #expect(WALOwnership.lastCommittedApplicationID(walPath: folder.file("c.sqlite-wal")) == 0x3333_3333)
        let pageBytes = Int(WALOwnership.bigEndian(Array(wal), at: 8))
        let frameBytes = WALOwnership.frameHeaderBytes + pageBytes
        // Every frame's page data changed by one byte: the first frame's checksum fails, and nothing after it counts.
        var damaged = Array(wal)
        var offset = WALOwnership.headerBytes
        while offset + frameBytes <= damaged.count {
            damaged[offset + WALOwnership.frameHeaderBytes + 100] ^= 0xFF
            offset += frameBytes
        }
        try Data(damaged).write(to: URL(fileURLWithPath: folder.file("c.sqlite-wal")))
        #expect(WALOwnership.lastCommittedApplicationID(walPath: folder.file("c.sqlite-wal")) == nil)
        // Cut part-way through its first frame: nothing committed.
        try Data(wal.prefix(WALOwnership.headerBytes + frameBytes / 2)).write(to: URL(fileURLWithPath: folder.file("c.sqlite-wal")))
        #expect(WALOwnership.lastCommittedApplicationID(walPath: folder.file("c.sqlite-wal")) == nil)
        // A header of another format is no WAL at all.
        try Data(repeating: 0x57, count: 4096).write(to: URL(fileURLWithPath: folder.file("c.sqlite-wal")))
        #expect(WALOwnership.lastCommittedApplicationID(walPath: folder.file("c.sqlite-wal")) == nil)
    }

    /// The store gives a database its ID once and keeps it across starts.
    @Test func theStoreStampsADatabaseOnceAndKeepsTheID() throws {
        let directory = try TemporaryDirectory()
        func id() throws -> Int {
            let connection = try SQLiteConnection(path: directory.file(SQLiteStore.fileName), mode: .readOnly)
            let statement = try connection.statement("PRAGMA application_id")
            _ = try statement.step()
            return statement.int(0)
        }
        do { _ = try SQLiteStore(directory: directory.path) }
        let first = try id()
        #expect(first != 0)
        do { _ = try SQLiteStore(directory: directory.path) }
        #expect(try id() == first)
    }
}
