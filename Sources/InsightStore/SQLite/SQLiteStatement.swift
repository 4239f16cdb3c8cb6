import CSQLite

/// A prepared statement with typed binding and column access. Parameters are 1-based as in SQLite.
public final class SQLiteStatement {
    let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard code == SQLITE_OK, let pointer else { throw SQLiteError(connection: connection.handle, code: code, context: "prepare") }
        self.handle = pointer
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // SQLite copies bound text and blobs straight away with SQLITE_TRANSIENT (a macro that does not import).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    @discardableResult
    public func bind(_ index: Int32, _ value: Int64) -> SQLiteStatement {
        sqlite3_bind_int64(handle, index, value)
        return self
    }

    @discardableResult
    public func bind(_ index: Int32, _ value: Int) -> SQLiteStatement { bind(index, Int64(value)) }

    @discardableResult
    public func bind(_ index: Int32, _ value: Double) -> SQLiteStatement {
        sqlite3_bind_double(handle, index, value)
        return self
    }

    @discardableResult
    public func bind(_ index: Int32, _ value: String) -> SQLiteStatement {
        // With its length given, the text needs no terminating NUL: passing the String itself made Swift copy every
        // small (inline) string into a fresh C array, a heap allocation per bound column on the writer thread.
        let bound = value.utf8.withContiguousStorageIfAvailable { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { text in
                // A null pointer would bind NULL, not the empty string.
                guard let start = text.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, Self.transient) }
                return sqlite3_bind_text(handle, index, start, Int32(text.count), Self.transient)
            }
        }
        if bound == nil { sqlite3_bind_text(handle, index, value, -1, Self.transient) }
        return self
    }

    @discardableResult
    public func bind(_ index: Int32, _ value: String?) -> SQLiteStatement {
        if let value { return bind(index, value) }
        sqlite3_bind_null(handle, index)
        return self
    }

    @discardableResult
    public func bind(_ index: Int32, _ value: Int64?) -> SQLiteStatement {
        if let value { return bind(index, value) }
        sqlite3_bind_null(handle, index)
        return self
    }

    /// Binds UTF-8 bytes as text (the caller guarantees they are valid UTF-8), without making a `String` of them.
    @discardableResult
    public func bind(_ index: Int32, utf8Text: [UInt8]) -> SQLiteStatement {
        utf8Text.withUnsafeBytes { buffer in
            // A null pointer would bind NULL, not the empty string.
            guard let start = buffer.baseAddress else { return _ = sqlite3_bind_text(handle, index, "", 0, Self.transient) }
            _ = sqlite3_bind_text(handle, index, start.assumingMemoryBound(to: CChar.self), Int32(buffer.count), Self.transient)
        }
        return self
    }

    @discardableResult
    public func bind(_ index: Int32, blob: [UInt8]) -> SQLiteStatement {
        blob.withUnsafeBytes { buffer in
            _ = sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), Self.transient)
        }
        return self
    }

    /// Advances to the next row; false when done.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(connection: connection.handle, code: code, context: "step")
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows.
    public func run() throws(SQLiteError) {
        while try step() {}
        sqlite3_reset(handle)
    }

    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    public func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: text)
    }

    /// The column's text as UTF-8 bytes, valid only inside `body`: for values parsed, not kept, without making a
    /// `String` of them. Empty for NULL.
    public func withUTF8<Result>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        // `sqlite3_column_text` first: it may convert the value, and `sqlite3_column_bytes` then counts the text.
        let text = sqlite3_column_text(handle, column)
        let count = text == nil ? 0 : Int(sqlite3_column_bytes(handle, column))
        return body(UnsafeBufferPointer(start: text, count: count))
    }

    public func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }
    public func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    public func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
