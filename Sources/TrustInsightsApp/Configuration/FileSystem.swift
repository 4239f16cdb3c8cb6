#if canImport(Glibc)
import Glibc
#endif
import InsightModel

/// Small file helpers over POSIX calls, so the app layer does not need Foundation for them.
enum FileSystem {
    /// More than any configuration file holds: the service's, and the files it names (rate limits and the like; the
    /// shipped ones are a few KiB). The `models` commands pass their inputs' bound; catalogues, the models manifest
    /// and models are read by `RegularFile`, under bounds of their own.
    static let configurationMaximumBytes = 16 << 20

    /// The file's bytes, or nil if it does not exist; other failures throw.
    ///
    /// A named pipe is read as a file is (`--config <(generate-config)`, a producer writing into a FIFO), waiting for
    /// its writer, but not beyond SIGTERM or SIGINT: `serve` blocks those for its signal thread before it reads its
    /// configuration, and a pipe nobody writes to held `open` past them, so only SIGKILL ended the process. The pipe is
    /// opened without blocking and its writer waited for in `poll`, checking for those signals between waits.
    /// More than `maximumBytes` throws `EFBIG` (a device that never ends, /dev/zero, included) before memory runs out.
    /// The default bounds a configuration file: one on /dev/zero, or a pipe whose writer never stops, grew until the
    /// allocator failed and the process crashed with a backtrace (command-line probe, 6 December).
    static func readFile(atPath path: String, maximumBytes: Int = configurationMaximumBytes) throws(FileSystemError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            // Said as the catalogues and the manifest say it, not as the open's "No such device or address".
            var status = stat()
            if stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK {
                throw FileSystemError(path: path, code: code, reason: "not a regular file (a socket)")
            }
            throw FileSystemError(path: path, code: code)
        }
        defer { close(fd) }
        var status = stat()
        if fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR {
            throw FileSystemError(path: path, code: EISDIR, reason: "it is a folder, not a file")
        }
        if status.st_mode & S_IFMT == S_IFIFO {
            try waitForWriter(fd, path: path)
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        var result: [UInt8] = []
        // A regular file announces its size: one over the bound is refused unread (a 2 GiB file was read to the bound
        // first), and one under it is read into a buffer of its size. The read still holds the bound.
        if status.st_mode & S_IFMT == S_IFREG {
            guard Int(status.st_size) <= maximumBytes else { throw tooLarge(path, maximumBytes) }
            result.reserveCapacity(Int(status.st_size))
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(path: path, code: errno)
            }
            if count == 0 { break }
            guard result.count + count <= maximumBytes else { throw tooLarge(path, maximumBytes) }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    private static func tooLarge(_ path: String, _ maximumBytes: Int) -> FileSystemError {
        FileSystemError(
            path: path, code: EFBIG,
            reason: "larger than \(maximumBytes >> 20) MiB, more than a file of this kind holds (a device or a pipe that never ends?)")
    }

    /// Returns once the pipe has data or its writer came and went (Linux reports no hang-up before a writer has
    /// opened it); throws when SIGTERM or SIGINT is pending meanwhile.
    private static func waitForWriter(_ fd: Int32, path: String) throws(FileSystemError) {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, 200)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw FileSystemError(path: path, code: errno) }
            var pending = sigset_t()
            if sigpending(&pending) == 0 && (sigismember(&pending, SIGTERM) == 1 || sigismember(&pending, SIGINT) == 1) {
                throw FileSystemError(path: path, code: EINTR, reason: "stopped by a signal while waiting for something to write to this named pipe")
            }
        }
    }

    /// The size of the file at `path` (following symbolic links), or nil when there is none.
    static func fileSize(atPath path: String) -> Int? {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : nil
    }

    /// True when anything is at `path`, a symbolic link that leads nowhere included (not followed).
    static func entryExists(atPath path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// True when `path` names a folder (following symbolic links).
    static func isDirectory(atPath path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}

struct FileSystemError: Error, CustomStringConvertible {
    var path: String
    var code: Int32
    /// Said in place of the system's text for `code`.
    var reason: String? = nil
    /// Why, without the path.
    /// Lower-cased, as the other readers say a reason after "cannot read <path>:" or "cannot be read:".
    var reasonText: String {
        reason ?? FileErrorText.reason(code: code)
    }
    var description: String { "\(path): \(reasonText)" }
}
