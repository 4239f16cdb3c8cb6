import Synchronization

/// The first sign that the database file holds what SQLite did not write there (`SQLITE_CORRUPT`, `SQLITE_NOTADB`):
/// a disk or filesystem fault, or a backup copied over the live file in place (`cp` onto it keeps the inode, so
/// `DatabaseFileIdentity` still sees the file it opened). From then on every write is refused until a restart: the
/// writes that do not touch a damaged page still commit, and each would be acknowledged into a database the next
/// start may refuse. SQLite need not report such a copy at all (deploy/README.md, Backups); this acts only on what
/// it does report.
final class DatabaseCorruption: Sendable {
    private let seen = Atomic<Bool>(false)
    private let first = Mutex<String?>(nil)

    /// Keeps `error` when it is SQLite finding the file damaged; any other error is none of this.
    func note(_ error: any Error) {
        guard let error = error as? SQLiteError, error.isDamage else { return }
        first.withLock { if $0 == nil { $0 = error.description } }
        seen.store(true, ordering: .releasing)
    }

    /// What SQLite said the first time, or nil while nothing was found damaged.
    var detail: String? {
        guard seen.load(ordering: .acquiring) else { return nil }
        return first.withLock { $0 }
    }
}
