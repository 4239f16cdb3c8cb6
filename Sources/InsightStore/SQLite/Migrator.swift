/// Versioned schema changes, applied in order at start-up inside one write transaction each. The schema version is
/// SQLite's `user_version`, so a database newer than the binary is refused instead of being misread.
public struct Migrator: Sendable {
    public struct Migration: Sendable {
        public var version: Int
        public var description: String
        public var sql: String

        public init(version: Int, description: String, sql: String) {
            self.version = version
            self.description = description
            self.sql = sql
        }
    }

    public enum MigrationError: Error, Equatable, CustomStringConvertible {
        case databaseNewerThanBinary(database: Int, binary: Int)
        case migrationsOutOfOrder(Int)
        /// Schema version 0 with tables in it: another program's database, or ours read through another database's
        /// `-wal` file. Migrating it would write our schema into it (and a service would start afresh there).
        case notThisApplication(tables: Int)

        public var description: String {
            switch self {
            case .databaseNewerThanBinary(let database, let binary):
                "the database schema is version \(database) but this binary knows only up to \(binary); refusing to touch it"
            case .migrationsOutOfOrder(let version):
                "migration \(version) is out of order"
            case .notThisApplication(let tables):
                "the database holds \(tables) table\(tables == 1 ? "" : "s") but no schema version: it is another program's "
                    + "database, or a -wal file of another database sits beside it; refusing to write into it"
            }
        }
    }

    public var migrations: [Migration]

    public init(_ migrations: [Migration]) { self.migrations = migrations }

    /// Brings the database up to the newest version; returns the versions applied.
    ///
    /// `willMigrate` is told the stored and the newest version once, before the first migration runs, and not at all
    /// when there is nothing to run: an upgrade over a large database can take a while, and an operator watching
    /// the log should see why the service is not yet listening.
    @discardableResult
    public func migrate(
        _ connection: SQLiteConnection, willMigrate: (_ from: Int, _ to: Int) -> Void = { _, _ in }
    ) throws -> [Int] {
        for (offset, migration) in migrations.enumerated() where migration.version != offset + 1 {
            throw MigrationError.migrationsOutOfOrder(migration.version)
        }
        // Read in one snapshot: another process's first migration, committed between two reads, would otherwise look
        // like tables without a version.
        let (current, tables) = try connection.transaction(immediate: false) { () throws -> (Int, Int) in
            let tables = try connection.statement("SELECT count(*) FROM sqlite_master")
            defer { tables.reset() }
            _ = try tables.step()
            return (try currentVersion(connection), tables.int(0))
        }
        if current == 0 && tables > 0 { throw MigrationError.notThisApplication(tables: tables) }
        let newest = migrations.last?.version ?? 0
        if current > newest { throw MigrationError.databaseNewerThanBinary(database: current, binary: newest) }
        var applied: [Int] = []
        if current < newest { willMigrate(current, newest) }
        for migration in migrations where migration.version > current {
            // Another process opening the same new folder (a `keys create` beside the first `serve`) may have applied
            // it since `current` was read: read again under the write lock `BEGIN IMMEDIATE` takes, each migration
            // runs once and `user_version` never goes back. Before, a slower process ran migration 8 over a schema
            // at 12 and left the folder unopenable.
            let ran = try connection.transaction { () throws -> Bool in
                let version = try currentVersion(connection)
                if version > newest { throw MigrationError.databaseNewerThanBinary(database: version, binary: newest) }
                guard version < migration.version else { return false }
                try connection.execute(migration.sql)
                try connection.execute("PRAGMA user_version = \(migration.version)")
                return true
            }
            if ran { applied.append(migration.version) }
        }
        return applied
    }

    public func currentVersion(_ connection: SQLiteConnection) throws -> Int {
        let statement = try connection.statement("PRAGMA user_version")
        _ = try statement.step()
        let version = statement.int(0)
        statement.reset()
        return version
    }
}
