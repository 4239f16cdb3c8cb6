#if canImport(Glibc)
import Glibc
#endif

/// What the files read at start only looked like when they were read (device, inode, size, modification time), so
/// that a SIGHUP can say which of them changed since: an operator who edits `default.json` or `velocity.json` and
/// sends SIGHUP otherwise sees `models reloaded` and nothing about the edit, which applies only at the next start
/// (docs probe, 6 December). A file replaced by a rename is a new inode; one written in place changes its time or
/// size. A file absent then and now is no change.
struct ConfigurationFilesStamp: Sendable {
    private struct Identity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
    }

    private var entries: [(path: String, identity: Identity?)] = []

    init() {}

    /// Notes `path` as it is now; call it before the file is read, so that a change made while it is read counts.
    mutating func note(_ path: String) {
        guard !entries.contains(where: { $0.path == path }) else { return }
        entries.append((path, Self.identity(of: path)))
    }

    /// The files that differ from when they were noted, in the order they were noted.
    func changedFiles() -> [String] {
        entries.filter { Self.identity(of: $0.path) != $0.identity }.map(\.path)
    }

    private static func identity(of path: String) -> Identity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Identity(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modifiedSeconds: Int64(status.st_mtim.tv_sec), modifiedNanoseconds: Int64(status.st_mtim.tv_nsec))
    }
}
