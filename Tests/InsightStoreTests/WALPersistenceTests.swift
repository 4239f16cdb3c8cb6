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
