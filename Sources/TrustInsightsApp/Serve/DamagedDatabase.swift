import InsightStore

/// What to do about a database file SQLite finds damaged at start (`SQLITE_CORRUPT`, `SQLITE_NOTADB`): the advice
/// the same damage found while serving gets in the log. Start-up fails where the damage is first read, which may be
/// opening the file, a migration, or any read of the start (a damaged index page was read only by the signing-key
/// check), and a bare SQLite error repeated by every restart a supervisor makes told nothing to do
/// (observability and regression probes, 6 December).
enum DamagedDatabase {
    /// `: <advice>` when `error` is SQLite finding the file damaged, else nothing.
    static func advice(for error: any Error, databasePath: String) -> String {
        guard let error = error as? SQLiteError, error.isDamage else { return "" }
        return ": the database file is damaged or is not a database, most often a backup copied over the live file or a disk fault; "
            + "check it (sqlite3 \(databasePath) 'PRAGMA integrity_check'), restore it from a backup (trust-insights backup) into "
            + "the stopped folder, and start again"
    }
}
