import CSQLite
import Testing
@testable import InsightStore

/// SQLite's memory statistics cost a process-wide mutex around every allocation (Debian's build has no lookaside,
/// so every small one); the first connection turns them off, before SQLite initialises.
@Suite struct SQLiteLibraryConfigurationTests {
    @Test func memoryStatisticsAreOffOnceAConnectionHasOpened() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        try connection.execute("CREATE TABLE t (x TEXT); INSERT INTO t VALUES (hex(randomblob(2000)))")
        #expect(SQLiteConnection.libraryConfigured)
        // With statistics on, the connection and its statements alone would count here.
        #expect(sqlite3_memory_used() == 0)
        // Changing the setting now is refused: SQLite is initialised, which is why it is made before the first open.
        #expect(ti_sqlite3_disable_memory_statistics() == SQLITE_MISUSE)
    }
}
