import CSQLite

/// A failed SQLite call. Messages come from SQLite and name tables, columns or constraints, never bound values.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int32
    public var extendedCode: Int32
    public var message: String
    public var context: String

    public var description: String {
        let text = "\(context): \(message) (SQLite code \(extendedCode))"
        // SQLite's "database is locked" does not tell an operator whether to retry, or what held the lock.
        guard code == SQLITE_BUSY else { return text }
        return text + "; another process (a command, a backup, an sqlite3 shell) held the database's write lock longer than this one waits: try again once it is done"
    }

    /// SQLite found the file damaged or not a database (`SQLITE_CORRUPT`, `SQLITE_NOTADB`): what no retry mends.
    public var isDamage: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }

    init(connection: OpaquePointer?, code: Int32, context: String) {
        self.code = code & 0xFF
        self.extendedCode = connection.map { sqlite3_extended_errcode($0) } ?? code
        self.message = connection.flatMap { sqlite3_errmsg($0).map { String(cString: $0) } } ?? String(cString: sqlite3_errstr(code))
        self.context = context
    }
}
