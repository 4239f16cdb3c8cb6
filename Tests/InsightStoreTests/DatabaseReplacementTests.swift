import Foundation
import Glibc
import Testing
import InsightCore
@testable import InsightStore

/// A database or WAL deleted, moved or replaced under a running store: SQLite would go on committing into the open,
/// unlinked files, every write acknowledged and every one lost at the next start. The store refuses writes instead,
/// and says which file it was.
@Suite struct DatabaseReplacementTests {
    private func record(_ store: SQLiteStore, _ index: Int) throws {
        try store.recordAndWait(EvaluationRecord(
            evaluationID: "0190b6f2-7a1c-7000-8000-00000000000\(index)", tenant: TenantID("acme")!, environment: .production,
            keyID: "key", category: .payment, createdAt: 1_790_000_000_000, account: nil, device: nil, counterparty: nil,
            insights: []))
    }

    @Test(arguments: ["", "-wal", "-shm"])
    func writesAreRefusedOnceAFileTheStoreOpenedIsGone(suffix: String) throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try record(store, 1)
        #expect(store.replacedFile() == nil)
        let file = directory.file(SQLiteStore.fileName + suffix)
        #expect(rename(file, file + ".moved") == 0)
        #expect(store.replacedFile() == file)
        #expect(throws: (any Error).self) { try record(store, 2) }
        #expect(!store.isWritable())
        // Another file at the path is not the one the store opened either.
        #expect(close(open(file, O_CREAT | O_WRONLY, 0o600)) == 0)
        #expect(throws: (any Error).self) { try record(store, 3) }
    }

    /// Once SQLite finds the file damaged (a backup copied over the live database in place keeps its inode, so the
    /// check above cannot see it), writes that touch no damaged page would still commit, each acknowledged into a
    /// database the next start refuses (storage probe, 5 December). The first such error stops every write.
    @Test(arguments: [Int32(11), 26])
    func writesAreRefusedOnceSQLiteFindsTheFileDamaged(code: Int32) throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try record(store, 1)
        // Another error is no damage.
        #expect(throws: (any Error).self) {
            try store.write { _ in throw SQLiteError(connection: nil, code: 19, context: "step") }
        }
        try record(store, 2)
        #expect(store.corruptionFound() == nil)
        #expect(throws: (any Error).self) {
            try store.write { _ in throw SQLiteError(connection: nil, code: code, context: "step") }
        }
        let detail = try #require(store.corruptionFound())
        #expect(detail.contains("SQLite code \(code)"))
        #expect(throws: (any Error).self) { try record(store, 3) }
        #expect(throws: StoreError.databaseCorrupted(detail: detail)) { try store.write { try $0.execute("SELECT 1") } }
        #expect(!store.isWritable())
        // Found by a read as well.
        let other = try SQLiteStore(directory: try TemporaryDirectory().path)
        #expect(throws: (any Error).self) {
            try other.read { _ in throw SQLiteError(connection: nil, code: code, context: "step") }
        }
        #expect(other.corruptionFound() != nil)
        #expect(throws: StoreError.self) { try other.write { try $0.execute("SELECT 1") } }
    }

    /// The readiness probe must write something: a row rewritten with the same value makes SQLite write nothing, so
    /// the probe passed on storage that refused every real write.
    @Test func theStorageCheckCommitsAChangeEachTime() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        func checks() throws -> Int64? {
            try store.read { connection in
                let statement = try connection.statement("SELECT value FROM generation WHERE name = 'storageCheck'")
                return try statement.step() ? statement.int64(0) : nil
            }
        }
        #expect(store.isWritable())
        #expect(try checks() == 1)
        #expect(store.isWritable())
        #expect(try checks() == 2)
    }
}
