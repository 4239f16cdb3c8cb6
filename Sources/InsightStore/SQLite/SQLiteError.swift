import CSQLite

/// A failed SQLite call. Messages come from SQLite and name tables, columns or constraints, never bound values.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int32
    public var extendedCode: Int32
    public var message: String
    public var context: String

    public var description: String { "\(context): \(message) (SQLite code \(extendedCode))" }

    /// The database is locked by another writer past the busy timeout.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// The disk is full or the file cannot be written; the service reports not-ready until writes succeed again.
    public var isStorageUnavailable: Bool {
        code == SQLITE_FULL || code == SQLITE_IOERR || code == SQLITE_READONLY || code == SQLITE_CANTOPEN || isBusy
    }
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }

    init(connection: OpaquePointer?, code: Int32, context: String) {
        self.code = code & 0xFF
        self.extendedCode = connection.map { sqlite3_extended_errcode($0) } ?? code
        self.message = connection.flatMap { sqlite3_errmsg($0).map { String(cString: $0) } } ?? String(cString: sqlite3_errstr(code))
        self.context = context
    }
}
