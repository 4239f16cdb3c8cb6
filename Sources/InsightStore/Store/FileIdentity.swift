#if canImport(Glibc)
import Glibc
#endif

/// A file by device and inode, the identity a rename keeps and a copy or a new file at the same path does not.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// The file at `path` (following symbolic links, as `stat` does), or nil when there is none.
    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
