import Synchronization

/// The first sign that the database file holds what SQLite did not write there (`SQLITE_CORRUPT`, `SQLITE_NOTADB`):
/// a backup copied over the live file in place (`cp` onto it keeps the inode, so `DatabaseFileIdentity` still sees
/// the file it opened), a disk or filesystem fault. From then on every write is refused until a restart: the writes
/// that do not touch a damaged page still commit, and each would be acknowledged into a database the next start
/// refuses (storage probe, 5 December: 17,976 evaluations answered 200 after a `cp` over the live file, all lost).
final class DatabaseCorruption: Sendable {
    private let seen = Atomic<Bool>(false)
    private let first = Mutex<String?>(nil)

    /// Keeps `error` when it is SQLite finding the file damaged; any other error is none of this.
    func note(_ error: any Error) {
        guard let error = error as? SQLiteError, error.code == 11 || error.code == 26 else { return }
        first.withLock { if $0 == nil { $0 = error.description } }
        seen.store(true, ordering: .releasing)
    }

    /// What SQLite said the first time, or nil while nothing was found damaged.
    var detail: String? {
        guard seen.load(ordering: .acquiring) else { return nil }
        return first.withLock { $0 }
    }
}
