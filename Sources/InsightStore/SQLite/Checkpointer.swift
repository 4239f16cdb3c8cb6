import DetachedThreads
#if canImport(Glibc)
import Glibc
#endif

/// Copies the WAL back into the database file on a thread and connection of its own, so the writer never waits
/// for a checkpoint's fsync (SQLite's automatic checkpoint runs inside the committing write, and showed up as
/// fdatasync stalls in the group commit). A PASSIVE checkpoint takes no lock the writer or readers need; the
/// writer starts the WAL over once a checkpoint has caught up with it.
final class Checkpointer: @unchecked Sendable {
    // `stopping` is read and written only under `signal`'s lock; `connection` only by the checkpoint thread.
    private let signal = Condition()
    private var stopping = false
    private let connection: SQLiteConnection
    private let intervalMilliseconds: Int

    init(path: String, intervalMilliseconds: Int = 500) throws {
        connection = try SQLiteConnection(path: path)
        // Possibly the last connection to close: it must leave the WAL files in place too (see SQLiteStore).
        connection.keepWALFilesOnClose()
        self.intervalMilliseconds = intervalMilliseconds
    }

    func start() {
        DetachedThread.spawn { [self] in run() }
    }

    func stop() {
        signal.locked {
            stopping = true
            signal.broadcastLocked()
        }
    }

    private func run() {
        while true {
            let stop = signal.locked { () -> Bool in
                if !stopping { signal.waitLocked(milliseconds: intervalMilliseconds) }
                return stopping
            }
            if stop { return }
            try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
        }
    }
}
