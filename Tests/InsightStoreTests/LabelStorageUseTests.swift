import Testing
import InsightCore
@testable import InsightStore

/// The quota's tally in SQLite: the core's tests run against an in-memory fake, so the days a read returns and the
/// rows an add prunes are checked here against the real table.
@Suite struct LabelStorageUseTests {
    func tally(_ store: SQLiteStore, key: String, day: Int64) throws -> [Int64: Int64] {
        try store.inLabelTransactionAndWait { try $0.storedLabelBytes(keyID: key, day: day).bytesByDay }
    }

    func add(_ store: SQLiteStore, _ bytes: Int64, key: String, day: Int64) throws {
        try store.inLabelTransactionAndWait { try $0.addStoredLabelBytes(bytes, keyID: key, day: day) }
    }

    @Test func aReadReturnsTodayAndTomorrowOfItsOwnKeyOnly() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        try add(store, 4_096, key: "k_a", day: 20_000)
        try add(store, 8_192, key: "k_a", day: 20_000)
        try add(store, 12_288, key: "k_a", day: 20_001)
        try add(store, 1_000_000, key: "k_b", day: 20_000)
        #expect(try tally(store, key: "k_a", day: 20_000) == [20_000: 12_288, 20_001: 12_288])
        #expect(try tally(store, key: "k_a", day: 20_001) == [20_001: 12_288])
        #expect(try tally(store, key: "k_a", day: 19_999) == [20_000: 12_288])
        #expect(try tally(store, key: "k_b", day: 20_000) == [20_000: 1_000_000])
        #expect(try tally(store, key: "k_c", day: 20_000) == [:])
    }

    /// Every add drops, for every key, the rows older than yesterday and more than a day ahead, so the table holds
    /// three days of keys at most, and a clock stepped back two days or more finds no tally of its own future.
    @Test func anAddPrunesEveryKeysRowsOutsideYesterdayToTomorrow() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        // Written beside the store, as days of a clock that stepped: adds through the store would prune each other.
        let connection = try SQLiteConnection(path: directory.file(SQLiteStore.fileName), mode: .readWrite)
        try connection.execute("""
            INSERT INTO label_storage_use (key_id, day, bytes) VALUES
                ('k_a', 19998, 100), ('k_b', 19999, 100), ('k_c', 20000, 100), ('k_d', 20001, 100), ('k_e', 20002, 100)
            """)
        try add(store, 1, key: "k_z", day: 20_000)
        let statement = try connection.statement("SELECT key_id, day FROM label_storage_use ORDER BY day, key_id")
        var kept: [String] = []
        while try statement.step() { kept.append("\(statement.string(0)) \(statement.int64(1))") }
        #expect(kept == ["k_b 19999", "k_c 20000", "k_z 20000", "k_d 20001"])
    }

    @Test func theTallySurvivesReopeningTheStore() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try SQLiteStore(directory: directory.path)
            try add(store, 40_960, key: "k_a", day: 20_000)
        }
        let reopened = try SQLiteStore(directory: directory.path)
        #expect(try tally(reopened, key: "k_a", day: 20_000) == [20_000: 40_960])
    }
}
