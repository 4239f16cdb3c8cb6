import InsightStore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif
import InsightModel

/// One serving process per data folder. Two servers on one folder would each keep their own velocity windows,
/// authorization cache and compliance counts, and answer the same person differently; the command-line tools
/// (`keys`, `export`, ...) share the folder with a server by design and take no lock.
///
/// An exclusive `flock` on the data folder itself, held while serving: the kernel drops it when the process ends,
/// however it ends, so a crash leaves nothing to clean up, and there is no file whose deletion (a habit with "stale"
/// lock files) would let a second server in. `<dataDir>/serve.lock`, locked the same way, holds the owner's
/// process ID for an operator and for the refusal's message, and is emptied by a clean stop: a start that finds an
/// ID in it follows a run that was killed, crashed or lost its host.
final class DataFolderLock: Sendable {
    static let fileName = "serve.lock"

    private let descriptors: Mutex<[Int32]>

    /// The process ID the lock file still named when this start took it: a server that ended without stopping
    /// (or one of a build before 7 December, which left its ID at every stop). Nil after a clean stop.
    let uncleanlyEndedOwner: Int?

    init(dataDir: String) throws(CommandLineError) {
        try DataFolderState(dataDir: dataDir).checkParentBeforeCreating()
        do {
            try SQLiteStore.createPrivateDirectory(dataDir)
        } catch {
            throw .failure("cannot open the data folder \(dataDir): \(error)")
        }
        let path = dataDir + "/" + Self.fileName
        let folder = open(dataDir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            let code = errno
            var status = stat()
            let owned = stat(dataDir, &status) == 0 && status.st_uid == geteuid()
            throw Self.openFailure(dataDir, code: code, ownedByThisUser: owned)
        }
        guard flock(folder, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(folder)
            if reason == EWOULDBLOCK { throw Self.inUse(dataDir, owner: Self.liveOwner(path)) }
            throw .failure("cannot lock the data folder \(dataDir): \(FileErrorText.reason(code: reason))")
        }
        // Opened inside the folder just locked, never through a link: a `serve.lock` that is a symbolic or hard link
        // to another file would have a start as root truncate that file (and, below, give it away).
        var fd = openat(folder, Self.fileName, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        let created = fd >= 0
        if !created && errno == EEXIST { fd = openat(folder, Self.fileName, O_RDWR | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else {
            let reason = errno
            close(folder)
            if reason == ELOOP { throw Self.notAPlainFile(path) }
            throw .failure("cannot open \(path): \(FileErrorText.reason(code: reason))\(Self.foreignLockFileAdvice(path, reason: reason))")
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1 else {
            close(fd)
            close(folder)
            throw Self.notAPlainFile(path)
        }
        if created { Self.giveToTheFolderOwner(fd, folder: folder) }
        // Held by a server of an earlier build, which locked only this file.
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(fd)
            close(folder)
            if reason == EWOULDBLOCK { throw Self.inUse(dataDir, owner: Self.liveOwner(path)) }
            throw .failure("cannot lock \(path): \(FileErrorText.reason(code: reason))")
        }
        uncleanlyEndedOwner = created ? nil : Self.processID(readFrom: fd).flatMap { $0 > 0 ? $0 : nil }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        descriptors = Mutex([fd, folder])
    }

    /// A lock file made by a start as root on a folder the service's user owns (one refused for the signing keys'
    /// owner, say) would otherwise be root's, and every later start as the service's user would fail on it until
    /// someone deleted it. The file holds only a process ID, so it goes to those who may run the service here: the
    /// folder's owner and group, and the group may write it where it may write the folder (a volume's root under
    /// Kubernetes' `fsGroup`, owned by root). Only a file this process has just made is given away: one that was
    /// there belongs to whoever made it.
    private static func giveToTheFolderOwner(_ fd: Int32, folder: Int32) {
        guard geteuid() == 0 else { return }
        var folderStatus = stat()
        guard fstat(folder, &folderStatus) == 0 else { return }
        _ = fchown(fd, folderStatus.st_uid, folderStatus.st_gid)
        if folderStatus.st_mode & S_IWGRP != 0 { _ = fchmod(fd, 0o660) }
    }

    private static func notAPlainFile(_ path: String) -> CommandLineError {
        .failure("refusing \(path): it is a link or not a regular file, and a start could write through it to another file; "
            + "remove it (it only ever holds a process ID) and start again")
    }

    /// A lock file another user left (a start as root by an earlier build). This process holds the folder's own
    /// lock, but a server of a build before that lock existed takes only the file's: so the advice is conditional.
    private static func foreignLockFileAdvice(_ path: String, reason: Int32) -> String {
        var status = stat()
        guard reason == EACCES, stat(path, &status) == 0, status.st_uid != geteuid() else { return "" }
        return " (it belongs to uid \(status.st_uid), left by a start as that user: delete it once no other "
            + "trust-insights serve runs on this folder)"
    }

    /// `/a/b` for `/a/b/c/`, `.` for `data`, `/` for `/data`.
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        // `x/` and `x/.` are `x`, whose parent is wanted (second regression probe: `./d10/.` named `./d10`).
        while trimmed.count > 1 && (trimmed.hasSuffix("/") || trimmed.hasSuffix("/.")) { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// Lets another server take the folder; the runtime calls it once it has stopped. The lock file is emptied
    /// first, so the next start can tell this stop from a kill.
    func release() {
        release(leaving: nil)
    }

    /// With `owner`, the lock file is left naming it rather than emptied.
    private func release(leaving owner: Int?) {
        descriptors.withLock { open in
            if let lockFile = open.first {
                _ = ftruncate(lockFile, 0)
                if let owner {
                    let text = Array("\(owner)\n".utf8)
                    _ = text.withUnsafeBytes { pwrite(lockFile, $0.baseAddress, $0.count, 0) }
                }
            }
            for fd in open { close(fd) }
            open = []
        }
    }

    /// Reached without `release()` only by a start that failed before serving: it leaves the killed run it found
    /// named for the start that will serve, or a supervisor's next, successful start said nothing of the kill
    /// (regression probe, 7 December).
    deinit {
        release(leaving: uncleanlyEndedOwner)
    }

    /// The refusal a start gets while a server holds `dataDir`, or nil while none does: asked first where the
    /// address is taken too, as a second start of the same service is the likelier cause and this names it.
    static func refusalWhileHeld(dataDir: String) -> CommandLineError? {
        guard holder(dataDir: dataDir) != nil else { return nil }
        return inUse(dataDir, owner: liveOwner(dataDir + "/" + fileName))
    }

    /// A folder the system will not open for this user said only "permission denied" (fault probe, 7 December): it is
    /// the folder's owner or its mode, which the message now says, as the database's own check does.
    static func openFailure(_ dataDir: String, code: Int32, ownedByThisUser: Bool) -> CommandLineError {
        let reason = FileErrorText.reason(code: code)
        guard code == EACCES || code == EPERM else { return .failure("cannot open the data folder \(dataDir): \(reason)") }
        // The owner's own folder refuses only by its mode (regression probe: the advice to run as the owner did not
        // fit a folder of mode 000 that was already the user's).
        if ownedByThisUser {
            return .failure(
                "cannot open the data folder \(dataDir): \(reason): the folder is this user's, but its mode does not let "
                    + "them in: chmod 700 \(dataDir)")
        }
        return .failure(
            "cannot open the data folder \(dataDir): \(reason): run the service as the user that owns the folder (it is "
                + "theirs alone, mode 0700), or give the folder to that user; ls -ld \(dataDir) shows its owner and mode")
    }

    private static func inUse(_ dataDir: String, owner: Int?) -> CommandLineError {
        .failure(
            "another trust-insights serve\(owner.map { " (process \($0))" } ?? "") is using the data folder \(dataDir): "
                + "one server per data folder, and one folder per deployment (velocity, opt-outs, keys and evaluations live "
                + "in it): stop the other first")
    }

    /// Whether a server holds the folder, and its process ID when the lock file names it (0 when not): a shared lock
    /// on `serve.lock` that the server's exclusive one refuses. Taken and dropped at once; for the rare checks that
    /// need it, since a server starting in that instant would find the file locked.
    static func holder(dataDir: String) -> Int? {
        let path = dataDir + "/" + fileName
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return nil
        }
        return errno == EWOULDBLOCK ? owner(path) ?? 0 : nil
    }

    /// The process ID of the server that holds the folder, read from the lock file. A server that took the folder's
    /// lock an instant ago has not written its ID yet: the file is empty, or still names the server before it,
    /// which has ended. So a few reads, 10 ms apart, until it names a live process; one start of two racing on a
    /// folder was refused without the winner's ID (races probe, 6 December).
    private static func liveOwner(_ path: String) -> Int? {
        for attempt in 0..<20 {
            if let pid = owner(path), pid > 0,
               kill(pid_t(truncatingIfNeeded: pid), 0) == 0 || errno == EPERM {
                return pid
            }
            if attempt < 19 { usleep(10_000) }
        }
        return nil
    }

    /// The process ID the lock file names, if it can be read.
    private static func owner(_ path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return processID(readFrom: fd)
    }

    private static func processID(readFrom fd: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first.flatMap { Int($0) }
    }
}
