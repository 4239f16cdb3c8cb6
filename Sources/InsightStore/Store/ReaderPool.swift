import Synchronization

/// Read-only connections handed out one caller at a time; WAL lets them read while the writer commits.
final class ReaderPool: Sendable {
    private let path: String
    private let idle = Mutex<[SQLiteConnection]>([])
    private let maximumIdle: Int

    init(path: String, maximumIdle: Int = 8) {
        self.path = path
        self.maximumIdle = maximumIdle
    }

    func withReader<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? SQLiteConnection(path: path, mode: .readOnly)
        defer {
            connection.resetActiveStatements()
            idle.withLock { connections in
                if connections.count < maximumIdle { connections.append(connection) }
            }
        }
        return try body(connection)
    }
}
