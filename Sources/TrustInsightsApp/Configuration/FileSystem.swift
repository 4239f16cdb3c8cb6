#if canImport(Glibc)
import Glibc
#endif

/// Small file helpers over POSIX calls, so the app layer does not need Foundation for them.
enum FileSystem {
    /// The file's bytes, or nil if it does not exist; other failures throw.
    ///
    /// Opened without blocking: a named pipe nobody writes to would otherwise hold `open` (and start-up, with the
    /// signals that could stop it blocked) forever; it reads as empty instead. Reads block again, so a pipe with a
    /// writer (`--config <(generate-config)`) is read to its end.
    static func readFile(atPath path: String) throws(FileSystemError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw FileSystemError(path: path, code: errno)
        }
        defer { close(fd) }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(path: path, code: errno)
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    /// The size of the file at `path` (following symbolic links), or nil when there is none.
    static func fileSize(atPath path: String) -> Int? {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : nil
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
    var description: String { "\(path): \(String(cString: strerror(code)))" }
}
