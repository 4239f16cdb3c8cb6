import FoundationEssentials
import Glibc

/// Why `RegularFile.read(atPath:maximumBytes:)` refused a file; each prints as the reason an operator reads after the
/// file's name.
public enum RegularFileError: Error, Equatable, CustomStringConvertible {
    /// The system refused to open or read it (`errno`: no such file, permission denied, not a directory, a loop of links).
    case system(code: Int32)
    case folder
    /// A named pipe, a socket or a device: `kind` says which.
    case notARegularFile(kind: String)
    case tooLarge(maximumBytes: Int)

    public var description: String {
        switch self {
        case .system(let code): return FileErrorText.reason(code: code)
        case .folder: return "it is a folder, not a file"
        case .notARegularFile(let kind): return "not a regular file (\(kind))"
        case .tooLarge(let maximumBytes):
            // As the `models` commands say a bound ("1 GiB"): `verify` and `serve` said the same one as "1024 MiB".
            let bound = maximumBytes >= 1 << 30 && maximumBytes % (1 << 30) == 0 ? "\(maximumBytes >> 30) GiB"
                : maximumBytes >= 1 << 20 ? "\(maximumBytes >> 20) MiB" : "\(maximumBytes) bytes"
            return "larger than \(bound), more than a file of this kind holds"
        }
    }
}

/// Reads the files the service loads at start and on reload (feature catalogues, the models manifest, models): only a
/// regular file, or a link to one, of at most a given size. A named pipe would hold a reload until something wrote to
/// it, and Foundation refused one as "permission denied", which sent an operator looking at modes that were fine.
///
/// The type and size are checked on the opened descriptor, and the read itself stops past the bound, so a file
/// swapped or grown between the check and the read is still held to it (the catalogue loader and the manifest each
/// checked `stat` by name, then read the name whole).
public enum RegularFile {
    public static func read(atPath path: String, maximumBytes: Int) throws(RegularFileError) -> Data {
        // O_NONBLOCK: opening a named pipe for reading would otherwise wait for a writer before fstat could refuse it.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            // A socket cannot be opened at all ("no such device or address"), nor a pipe without read permission:
            // what the file is says more than why the open failed (file-reading probe, 7 December).
            var status = stat()
            if stat(path, &status) == 0 { try requireRegular(status) }
            throw .system(code: code)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(code: errno) }
        try requireRegular(status)
        let size = Int(status.st_size)
        guard size <= maximumBytes else { throw .tooLarge(maximumBytes: maximumBytes) }
        // One byte past the size shows, in the same loop, whether the file grew since fstat. Read into the Data
        // returned, cut to length at the end: a model near the bound is not held twice.
        var data = Data(count: max(size, 4096) + 1)
        var count = 0
        while true {
            if count == data.count {
                guard count <= maximumBytes else { throw .tooLarge(maximumBytes: maximumBytes) }
                data.count += min(data.count, 1 << 20)
            }
            let wanted = data.count - count
            let got = data.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, wanted) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .system(code: errno)
            }
            if got == 0 { break }
            count += got
        }
        guard count <= maximumBytes else { throw .tooLarge(maximumBytes: maximumBytes) }
        data.count = count
        return data
    }

    private static func requireRegular(_ status: stat) throws(RegularFileError) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .folder
        default: throw .notARegularFile(kind: kind(of: status))
        }
    }

    /// What the file `status` describes is, as refusals say it: "a named pipe", "a socket", "a device".
    public static func kind(of status: stat) -> String {
        switch status.st_mode & S_IFMT {
        case S_IFREG: "a file"
        case S_IFDIR: "a folder"
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFLNK: "a symbolic link"
        default: "of an unknown kind"
        }
    }
}
