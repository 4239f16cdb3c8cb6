import InsightStore

/// What to do about a database file SQLite finds damaged at start (`SQLITE_CORRUPT`, `SQLITE_NOTADB`): the advice
/// the same damage found while serving gets in the log. Start-up fails where the damage is first read, which may be
/// opening the file, a migration, or any read of the start (a damaged index page was read only by the signing-key
/// check), and a bare SQLite error repeated by every restart a supervisor makes told nothing to do
/// (observability and regression probes, 6 December).
enum DamagedDatabase {
    /// `: <advice>` when `error` is SQLite finding the file damaged, else nothing.
    ///
    /// A `-wal` file of another database beside this one (copied in with a backup) reads as the same damage: SQLite
    /// cannot tell a WAL's database from its header. The start writes neither file (`SQLiteConnection` checkpoints on
    /// close only once the schema was read), so the advice can say how to tell the two apart: a copy of the database
    /// file alone reads no WAL.
    static func advice(for error: any Error, databasePath: String) -> String {
        guard let error = error as? SQLiteError, error.isDamage else { return "" }
        let wal = databasePath + "-wal"
        guard let walBytes = FileSystem.fileSize(atPath: wal), walBytes > 0 else {
            return ": the database file is damaged or is not a database, most often a backup copied over the live file or a disk fault; "
                + "check it (sqlite3 \(databasePath) 'PRAGMA integrity_check'), restore it from a backup (trust-insights backup) into "
                + "the stopped folder, and start again"
        }
        return ": the database file, or the write-ahead log beside it (\(wal)), is damaged or is not this database's, most often "
            + "a backup copied over the live file, a -wal file of another database copied in beside it, or a disk fault; neither "
            + "file was changed. To tell which: copy \(databasePath) alone to another folder and check the copy (sqlite3 <copy> "
            + "'PRAGMA integrity_check'), which reads no -wal; if the copy is intact, the -wal file is not this database's (move it "
            + "out of the folder, keeping it, and start again); if not, restore the database from a backup (trust-insights backup) "
            + "into the stopped folder, and start again"
    }
}
