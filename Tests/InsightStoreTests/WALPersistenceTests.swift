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
}
