#if canImport(Glibc)
import Glibc
#endif
import InsightModel

/// What the files read at start only looked like when they were read (device, inode, size, modification and
/// change times), so that a SIGHUP can say which of them changed since: an operator who edits `default.json` or
/// `velocity.json` and sends SIGHUP otherwise sees `models reloaded` and nothing about the edit, which applies only
/// at the next start (docs probe, 6 December). A file replaced by a rename is a new inode; one written in place
/// changes its times, the change time even when the modification time is set back (`touch -r`). A file absent then
/// and now is no change. A pipe or device given as the configuration file (`--config <(...)`) is not a file that
/// can be edited: it is not watched (writing into a FIFO moves its times).
struct ConfigurationFilesStamp: Sendable {
    private struct Identity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
        var changedSeconds: Int64
        var changedNanoseconds: Int64
    }

    private var entries: [(path: String, identity: Identity?)] = []

    init() {}

    /// Notes `path` as it is now; call it before the file is read, so that a change made while it is read counts.
    /// Kept absolute: the log line that names it is read in a journal, far from the folder `serve` was started in,
    /// and `--config cfg/x.json` beside a `configDir` given absolute made one line of two forms (operations probe,
    /// 7 December).
    mutating func note(_ givenPath: String) {
        let path = AbsolutePath.spelling(of: AbsolutePath.of(givenPath))
        guard !entries.contains(where: { $0.path == path }) else { return }
        var status = stat()
        guard stat(path, &status) == 0 else {
            entries.append((path, nil))
            return
        }
        guard status.st_mode & S_IFMT == S_IFREG else { return }
        entries.append((path, Self.identity(of: status)))
    }

    /// The files that differ from when they were noted, in the order they were noted.
    func changedFiles() -> [String] {
        entries.filter { Self.identity(of: $0.path) != $0.identity }.map(\.path)
    }

    private static func identity(of path: String) -> Identity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return identity(of: status)
    }

    private static func identity(of status: stat) -> Identity {
        Identity(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modifiedSeconds: Int64(status.st_mtim.tv_sec), modifiedNanoseconds: Int64(status.st_mtim.tv_nsec),
            changedSeconds: Int64(status.st_ctim.tv_sec), changedNanoseconds: Int64(status.st_ctim.tv_nsec))
    }
}
