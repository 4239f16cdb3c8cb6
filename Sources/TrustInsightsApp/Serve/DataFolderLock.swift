import InsightStore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One serving process per data folder. Two servers on one folder would each keep their own velocity windows,
/// authorization cache and compliance counts, and answer the same person differently; the command-line tools
/// (`keys`, `export`, ...) share the folder with a server by design and take no lock.
///
/// An exclusive `flock` on `<dataDir>/serve.lock`, held while serving: the kernel drops it when the process ends,
/// however it ends, so a crash leaves nothing to clean up. The file holds the owner's process ID for an operator.
final class DataFolderLock: Sendable {
    static let fileName = "serve.lock"

    private let descriptor: Mutex<Int32?>

    init(dataDir: String) throws(CommandLineError) {
        do {
            try SQLiteStore.createPrivateDirectory(dataDir)
        } catch {
            throw .failure("cannot open the data folder \(dataDir): \(error)")
        }
        let path = dataDir + "/" + Self.fileName
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .failure("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            let owner = Self.owner(fd)
            close(fd)
            if reason == EWOULDBLOCK {
                throw .failure(
                    "another trust-insights serve\(owner.map { " (process \($0))" } ?? "") is using the data folder \(dataDir): "
                        + "one server per data folder, and one folder per deployment (velocity, opt-outs, keys and evaluations live "
                        + "in it): stop the other first")
            }
            throw .failure("cannot lock \(path): \(String(cString: strerror(reason)))")
        }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        descriptor = Mutex(fd)
    }

    /// Lets another server take the folder; the runtime calls it once it has stopped.
    func release() {
        descriptor.withLock { fd in
            if let open = fd { close(open) }
            fd = nil
        }
    }

    deinit {
        release()
    }

    private static func owner(_ fd: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first.flatMap { Int($0) }
    }
}
