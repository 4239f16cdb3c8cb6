import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import InsightStore

@Suite struct MigratorTests {
    let migrator = Migrator([
        .init(version: 1, description: "things", sql: "CREATE TABLE thing (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"),
        .init(version: 2, description: "thing size", sql: "ALTER TABLE thing ADD COLUMN size INTEGER NOT NULL DEFAULT 0"),
    ])

    @Test func appliesPendingMigrationsOnceInOrder() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        #expect(try migrator.migrate(connection) == [1, 2])
        #expect(try migrator.migrate(connection) == [])
        #expect(try migrator.currentVersion(connection) == 2)
        try connection.execute("INSERT INTO thing (name, size) VALUES ('a', 3)")
    }

    /// The service logs an upgrade before it runs (it can take a while on a large database): the callback hears the
    /// stored and the newest version once, and nothing when the database is already current.
    @Test func tellsOfAnUpgradeOnceBeforeItRuns() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        try Migrator(Array(migrator.migrations.prefix(1))).migrate(connection)
        var told: [[Int]] = []
        let applied = try migrator.migrate(connection) { from, to in
            told.append([from, to, (try? migrator.currentVersion(connection)) ?? -1])
        }
        #expect(applied == [2])
        #expect(told == [[1, 2, 1]])
        told.removeAll()
        try migrator.migrate(connection) { from, to in told.append([from, to]) }
        #expect(told.isEmpty)
    }

    @Test func refusesDatabaseNewerThanBinary() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        try migrator.migrate(connection)
        let older = Migrator(Array(migrator.migrations.prefix(1)))
        #expect(throws: Migrator.MigrationError.databaseNewerThanBinary(database: 2, binary: 1)) { try older.migrate(connection) }
    }

    /// Tables without a schema version are another program's database, or ours read through another database's
    /// `-wal` file: refused, and nothing written. Before (regression probe, 7 December), `serve` migrated such a
    /// database as new, printed new demo keys beside the folder's signing keys, and folded the schema into the file.
    @Test func refusesTablesWithoutASchemaVersionAndWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        try connection.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        #expect(throws: Migrator.MigrationError.notThisApplication(tables: 1)) { try migrator.migrate(connection) }
        #expect(try migrator.currentVersion(connection) == 0)
        let names = try connection.statement("SELECT group_concat(name) FROM sqlite_master")
        _ = try names.step()
        #expect(names.string(0) == "t")
        names.reset()
        #expect(Migrator.MigrationError.notThisApplication(tables: 1).description
            == "the database holds 1 table but no schema version: it is another program's database, or a -wal file of another database sits beside it; refusing to write into it")
    }

    /// Processes opening one new folder at once (a `keys create` beside the first `serve`) each migrate it: every
    /// migration runs once, and the schema ends at the newest version. Before, a process that had read the version
    /// before another migrated ran the old migrations again over the new schema ("no such index", "table tenant
    /// already exists") and set `user_version` back, which broke the folder for good (found by an operator probe).
    @Test func connectionsMigratingOneNewDatabaseAtOnceEachApplyAMigrationOnce() throws {
        let newest = Schema.migrator.migrations.last!.version
        for _ in 0..<6 {
            let directory = try TemporaryDirectory()
            let path = directory.file("db.sqlite")
            let failures = Mutex<[String]>([])
            let applied = Mutex<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    let connection: SQLiteConnection
                    do { connection = try SQLiteConnection(path: path) } catch { failures.withLock { $0.append("open \(error)") }; return }
                    let versions = try Schema.migrator.migrate(connection)
                    applied.withLock { $0 += versions }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(applied.withLock { $0.sorted() } == Array(1...newest))
            let connection = try SQLiteConnection(path: path)
            #expect(try Schema.migrator.currentVersion(connection) == newest)
            #expect(try Schema.migrator.migrate(connection) == [])
        }
    }

    @Test func usesWriteAheadLog() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        let statement = try connection.statement("PRAGMA journal_mode")
        #expect(try statement.step())
        #expect(statement.string(0) == "wal")
    }
}

@Suite struct SQLiteErrorTests {
    /// `keys revoke` beside an sqlite3 shell holding the write lock printed SQLite's bare "database is locked",
    /// which does not say whether the change was made or what to do (found by a tenancy probe).
    @Test func aLockHeldElsewhereSaysToTryAgain() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let holder = try SQLiteConnection(path: path)
        try holder.execute("CREATE TABLE thing (id INTEGER PRIMARY KEY)")
        try holder.execute("BEGIN IMMEDIATE")
        let waiter = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 20)
        do {
            try waiter.execute("INSERT INTO thing (id) VALUES (1)")
            Issue.record("the insert ran under another connection's write lock")
        } catch {
            #expect(error.code == 5)
            #expect(error.description.contains("database is locked"))
            #expect(error.description.contains("try again"))
        }
        try holder.execute("COMMIT")
        try waiter.execute("INSERT INTO thing (id) VALUES (1)")
    }
}

@Suite struct GroupCommitterTests {
    private func makeCommitter(_ directory: TemporaryDirectory) throws -> GroupCommitter {
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        try connection.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, value INTEGER NOT NULL UNIQUE)")
        return GroupCommitter(connection: connection)
    }

    @Test func commitsConcurrentWritesAndBatchesThem() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory)
        let writers = 8
        let perWriter = 200
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for index in 0..<perWriter {
                try! committer.perform { connection in
                    try connection.statement("INSERT INTO item (value) VALUES (?)").bind(1, writer * 10_000 + index).run()
                }
            }
        }
        let reader = try SQLiteConnection(path: directory.file("db.sqlite"), mode: .readOnly)
        let count = try reader.statement("SELECT count(*) FROM item")
        #expect(try count.step())
        #expect(count.int(0) == writers * perWriter)
        #expect(committer.batchesCommitted <= writers * perWriter)
    }

    @Test func oneFailingWriteDoesNotUndoItsBatch() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory)
        try committer.perform { try $0.execute("INSERT INTO item (value) VALUES (1)") }
        #expect(throws: SQLiteError.self) {
            try committer.perform { try $0.execute("INSERT INTO item (value) VALUES (2); INSERT INTO item (value) VALUES (1)") }
        }
        try committer.perform { try $0.execute("INSERT INTO item (value) VALUES (3)") }
        let values = try committer.withConnection { connection -> [Int] in
            let statement = try connection.statement("SELECT value FROM item ORDER BY value")
            var values: [Int] = []
            while try statement.step() { values.append(statement.int(0)) }
            return values
        }
        #expect(values == [1, 3])
    }

    @Test func submittedWritesCallBackOnceCommittedWithTheirOwnOutcome() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory)
        let outcomes = Mutex<[Int: Bool]>([:])
        let done = DispatchSemaphore(value: 0)
        for (index, value) in [1, 2, 1, 3].enumerated() {
            committer.submit({ connection in
                try connection.statement("INSERT INTO item (value) VALUES (?)").bind(1, value).run()
            }, completion: { outcome in
                if case .success = outcome { outcomes.withLock { $0[index] = true } } else { outcomes.withLock { $0[index] = false } }
                done.signal()
            })
        }
        for _ in 0..<4 { #expect(done.wait(timeout: .now() + 5) == .success) }
        // The second insert of 1 breaks the UNIQUE constraint and fails alone.
        #expect(outcomes.withLock { $0 } == [0: true, 1: true, 2: false, 3: true])
        // Visible to a new connection once called back.
        let reader = try SQLiteConnection(path: directory.file("db.sqlite"), mode: .readOnly)
        let count = try reader.statement("SELECT count(*) FROM item")
        #expect(try count.step())
        #expect(count.int(0) == 3)
    }

    @Test func aFailingWriteInABatchIsRolledBackAloneAndTheOthersCommitOnce() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let outcomes = Mutex<[Int: Bool]>([:])
        // The first write holds the writer thread, so the next four queue up and commit as one batch. It is in a
        // batch of its own once it has started.
        let started = DispatchSemaphore(value: 0)
        committer.submit({ _ in
            started.signal()
            release.wait()
        }, completion: { _ in done.signal() })
        #expect(started.wait(timeout: .now() + 5) == .success)
        for (index, value) in [10, 11, 10, 12].enumerated() {
            committer.submit({ connection in
                try connection.statement("INSERT INTO item (value) VALUES (?)").bind(1, value).run()
            }, completion: { outcome in
                outcomes.withLock { $0[index] = (try? outcome.get()) != nil }
                done.signal()
            })
        }
        let batchesBefore = committer.batchesCommitted
        release.signal()
        for _ in 0..<5 { #expect(done.wait(timeout: .now() + 5) == .success) }
        #expect(committer.batchesCommitted == batchesBefore + 2)
        #expect(outcomes.withLock { $0 } == [0: true, 1: true, 2: false, 3: true])
        let values = try committer.withConnection { connection -> [Int] in
            let statement = try connection.statement("SELECT value FROM item ORDER BY value")
            var values: [Int] = []
            while try statement.step() { values.append(statement.int(0)) }
            return values
        }
        #expect(values == [10, 11, 12])
    }

    /// The per-batch state the hooks keep: what the batch's `written` closures added, and every flush.
    final class BatchSums: @unchecked Sendable {
        let state = Mutex<(pending: [Int], flushed: [[Int]], rollbacks: Int)>(([], [], 0))
    }

    private func makeCommitter(_ directory: TemporaryDirectory, sums: BatchSums, failFlushOf poison: Int? = nil) throws -> GroupCommitter {
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        try connection.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, value INTEGER NOT NULL UNIQUE)")
        try connection.execute("CREATE TABLE total (value INTEGER NOT NULL)")
        struct Poisoned: Error {}
        let hooks = GroupCommitter.BatchHooks(beforeCommit: { connection in
            let pending = sums.state.withLock { $0.pending }
            guard !pending.isEmpty else { return }
            try connection.statement("INSERT INTO total (value) VALUES (?)").bind(1, pending.reduce(0, +)).run()
            if let poison, pending.contains(poison) { throw Poisoned() }
            sums.state.withLock { $0.flushed.append($0.pending); $0.pending = [] }
        }, afterRollback: {
            sums.state.withLock { $0.pending = []; $0.rollbacks += 1 }
        })
        return GroupCommitter(connection: connection, hooks: hooks)
    }

    /// Submits `values` as one batch (behind a write that holds the writer until they are all queued) and returns
    /// each one's outcome in order.
    private func submitAsOneBatch(_ committer: GroupCommitter, _ values: [Int], sums: BatchSums) -> [Bool] {
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let outcomes = Mutex<[Int: Bool]>([:])
        committer.submit({ _ in
            started.signal()
            release.wait()
        }, completion: { _ in done.signal() })
        #expect(started.wait(timeout: .now() + 5) == .success)
        for (index, value) in values.enumerated() {
            committer.submit({ connection in
                try connection.statement("INSERT INTO item (value) VALUES (?)").bind(1, value).run()
            }, written: {
                sums.state.withLock { $0.pending.append(value) }
            }, completion: { outcome in
                outcomes.withLock { $0[index] = (try? outcome.get()) != nil }
                done.signal()
            })
        }
        release.signal()
        for _ in 0...values.count { #expect(done.wait(timeout: .now() + 5) == .success) }
        return values.indices.map { index in outcomes.withLock { $0[index] ?? false } }
    }

    private func totals(_ committer: GroupCommitter) throws -> [Int] {
        try committer.withConnection { connection -> [Int] in
            let statement = try connection.statement("SELECT value FROM total ORDER BY rowid")
            var values: [Int] = []
            while try statement.step() { values.append(statement.int(0)) }
            return values
        }
    }

    @Test func theBatchHookSeesWhatTheCommittedWritesAddedAndNothingOfTheOnesRolledBack() throws {
        let directory = try TemporaryDirectory()
        let sums = BatchSums()
        let committer = try makeCommitter(directory, sums: sums)
        // The second 10 fails: the optimistic run is rolled back (its three `written` additions forgotten) and the
        // batch runs again with savepoints, where only the writes that stay add theirs.
        #expect(submitAsOneBatch(committer, [10, 11, 10, 12], sums: sums) == [true, true, false, true])
        #expect(sums.state.withLock { $0.flushed } == [[10, 11, 12]])
        #expect(sums.state.withLock { $0.rollbacks } == 1)
        #expect(try totals(committer) == [33])
    }

    @Test func aFailingBatchHookFailsEveryWriteOfItsBatchAndRollsThemBack() throws {
        let directory = try TemporaryDirectory()
        let sums = BatchSums()
        let committer = try makeCommitter(directory, sums: sums, failFlushOf: 13)
        #expect(submitAsOneBatch(committer, [1, 13, 2], sums: sums) == [false, false, false])
        #expect(try totals(committer) == [])
        #expect(sums.state.withLock { $0.pending }.isEmpty)
        // The next batch starts clean.
        #expect(submitAsOneBatch(committer, [1, 2], sums: sums) == [true, true])
        #expect(try totals(committer) == [3])
        let rows = try committer.withConnection { try $0.integer("SELECT count(*) FROM item") }
        #expect(rows == 2)
    }

    @Test func theWALStaysBoundedUnderWritesThatNeverPause() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        try connection.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, value INTEGER NOT NULL UNIQUE)")
        try connection.execute("PRAGMA wal_autocheckpoint = 0")
        let committer = GroupCommitter(connection: connection, walFrameLimit: 32)
        for value in 0..<2000 {
            try committer.perform { try $0.statement("INSERT INTO item (value) VALUES (?)").bind(1, value).run() }
        }
        // Without the bound every commit appends at least one 4 KiB frame: 2000 commits, 8 MB of WAL.
        var status = stat()
        #expect(stat(directory.file("db.sqlite") + "-wal", &status) == 0)
        #expect(status.st_size < 100 * 4120)
        #expect(committer.checkpointCatchUps > 10)
    }

    @Test func committedWriteIsVisibleToANewConnection() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory)
        try committer.perform { try $0.execute("INSERT INTO item (value) VALUES (42)") }
        let reader = try SQLiteConnection(path: directory.file("db.sqlite"), mode: .readOnly)
        let statement = try reader.statement("SELECT value FROM item")
        #expect(try statement.step())
        #expect(statement.int(0) == 42)
    }
}
