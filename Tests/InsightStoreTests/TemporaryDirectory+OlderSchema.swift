@testable import InsightStore

extension TemporaryDirectory {
    /// Leaves a store database in this folder at schema `version`, holding the rows `sql` inserts: what an older
    /// release wrote. A `SQLiteStore` opened on the folder then runs the later migrations over it.
    func storeDatabase(atSchemaVersion version: Int, rows sql: String) throws {
        let connection = try SQLiteConnection(path: file(SQLiteStore.fileName))
        try Migrator(Array(Schema.migrator.migrations.prefix(version))).migrate(connection)
        try connection.execute(sql)
    }
}
