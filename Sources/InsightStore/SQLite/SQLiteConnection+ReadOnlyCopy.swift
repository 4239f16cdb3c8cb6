#if canImport(Glibc)
import Glibc
#endif

extension SQLiteConnection {
    /// How a read-only connection opens a database file.
    enum ReadOnlyOpening: Equatable {
        /// As every connection does: reads go through the -shm index a writer shares.
        case shared
        /// With `immutable=1`: no -shm, no locks, the file alone.
        case immutable
        /// Not at all: the file alone would be missing commits (the message says which and what to do).
        case refused(String)
    }

    /// SQLite reads a WAL database through its -shm index and creates the index when it is missing; in a folder
    /// this account may not write (a backup on a read-only mount, an account that may only read the files) it
    /// cannot, and every read fails ("unable to open database file", code 14). Without a -shm file no writer has
    /// the database open (a writer in WAL mode always keeps one), and without a log, or with an empty one, the file
    /// holds every commit: a `.backup` copy, or a folder whose server stopped cleanly. That file is read as
    /// immutable. A log with frames in it but no index is refused: the file alone would silently miss them.
    static func readOnlyOpening(path: String) -> ReadOnlyOpening {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        guard access(folder.isEmpty ? "/" : folder, W_OK) != 0, access(path + "-shm", F_OK) != 0 else { return .shared }
        var log = stat()
        guard stat(path + "-wal", &log) == 0, log.st_size > 0 else { return .immutable }
        return .refused(
            "its write-ahead log (\(path)-wal, \(log.st_size) bytes) holds commits not yet in the database file, and "
                + "with no -shm file beside it and a folder this account may not write, SQLite cannot read them: "
                + "copy the folder's files somewhere writable and read the copy (or make backups with sqlite3's "
                + ".backup, which writes one complete file)")
    }

    /// `path` as an SQLite URI with `immutable=1`; `%`, `?` and `#` are escaped, as RFC 3986 needs in a path.
    static func immutableURI(path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file:\(escaped)?immutable=1"
    }
}
