import Synchronization
@testable import InsightStore

/// A write for the group-commit tests: inserts the next number into `item (id INTEGER PRIMARY KEY, value INTEGER
/// NOT NULL UNIQUE)`, so a write that ran twice would fail on the UNIQUE constraint.
final class ItemInsert: Sendable {
    static let createTable = "CREATE TABLE item (id INTEGER PRIMARY KEY, value INTEGER NOT NULL UNIQUE)"
    let next = Atomic<Int>(0)

    func callAsFunction(_ connection: SQLiteConnection) throws {
        try connection.statement("INSERT INTO item (value) VALUES (?)").bind(1, next.add(1, ordering: .relaxed).newValue).run()
    }
}
