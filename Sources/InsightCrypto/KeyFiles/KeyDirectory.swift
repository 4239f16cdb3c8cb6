import FoundationEssentials
import Glibc

/// POSIX file operations on the key directory, written against file descriptors so that the permission check
/// and the read see the same file, and so that a key file is complete and 0600 before its name appears.
struct KeyDirectory {
    let path: String

    /// `path` made absolute as text: `URL(fileURLWithPath:)` folds a relative path's `..` as text, so the parent of
    /// `linked/../keys` was checked and created beside the link rather than where the system puts the keys (as
    /// InsightModel's `AbsolutePath`, which this module cannot see).
    private var absolutePath: String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Creates the directory (0700) if absent, unless `creating` is false (a reload, which must change nothing on
    /// disk: a folder made where the keys were moved away would catch them when moved back); refuses one that
    /// other users could write to, since they could then plant or swap key files.
    func prepare(creating: Bool = true) throws {
        if !creating {
            var status = stat()
            if stat(path, &status) != 0 && errno == ENOENT { throw CryptoError.noKeys(path: path) }
        }
        if mkdir(path, 0o700) != 0 {
            var error = errno
            if error == ENOENT {
                // Parents (e.g. the data folder) get ordinary permissions; only the key directory itself is 0700.
                try createParents()
                error = mkdir(path, 0o700) == 0 ? EEXIST : errno
            }
            guard error == EEXIST else { throw CryptoError.keyStorage(path: path, operation: "mkdir", errno: error) }
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw CryptoError.keyStorage(path: path, operation: "stat", errno: errno)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw CryptoError.notAFolder(path: path, kind: Self.kind(status))
        }
        guard status.st_mode & 0o022 == 0 else {
            throw CryptoError.insecurePermissions(
                path: path, mode: status.st_mode, reason: "is writable by group or others; chmod 700 it")
        }
        // Modes alone do not say whose keys these are: another user's 0700 directory passes them.
        guard status.st_uid == geteuid() else {
            throw CryptoError.foreignOwner(path: path, owner: status.st_uid, expected: geteuid())
        }
        try checkParent()
    }

    /// Whoever may write the folder that holds the key directory can rename it away and put one of their own in
    /// its place. Writable by others (without the sticky bit, which stops that) is refused; writable by the group
    /// is not, since orchestrators grant a volume to a group (Kubernetes `fsGroup`).
    private func checkParent() throws {
        let parent = URL(fileURLWithPath: absolutePath).deletingLastPathComponent().path
        var status = stat()
        guard stat(parent, &status) == 0 else {
            throw CryptoError.keyStorage(path: parent, operation: "stat", errno: errno)
        }
        guard status.st_mode & 0o002 == 0 || status.st_mode & S_ISVTX != 0 else {
            throw CryptoError.insecurePermissions(
                path: parent, mode: status.st_mode,
                reason: "is writable by others, who could replace the signing keys in it; chmod o-w it")
        }
    }

    private func createParents() throws {
        let parent = URL(fileURLWithPath: absolutePath).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CryptoError.keyStorage(path: parent.path, operation: "mkdir", errno: ENOENT)
        }
    }

    func fileNames() throws -> [String] {
        guard let directory = opendir(path) else {
            let code = errno
            // The folder replaced by a file or a named pipe said "opendir ... failed: Not a directory" (CLI probe,
            // 7 December), which reads as a fault of the system rather than of what was put there.
            var status = stat()
            if code == ENOTDIR && stat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFDIR {
                throw CryptoError.notAFolder(path: path, kind: Self.kind(status))
            }
            throw CryptoError.keyStorage(path: path, operation: "opendir", errno: code)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Reads a private key file, refusing it unless it is a regular file with no group or other permissions.
    func readPrivateFile(named name: String) throws -> String {
        let filePath = path + "/" + name
        // O_NONBLOCK: a named pipe under a key's name held `open` until a writer came, in `serve` with SIGTERM and
        // SIGINT blocked for its signal thread, so only SIGKILL ended it (CLI probe, 7 December). Regular files
        // read the same either way.
        let descriptor = open(filePath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            // O_NOFOLLOW fails a link with ELOOP, whose text ("too many levels of symbolic links") misleads.
            if code == ELOOP {
                throw CryptoError.symbolicLink(path: filePath)
            }
            var status = stat()
            if code == ENXIO && lstat(filePath, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK {
                throw CryptoError.notARegularFile(path: filePath, kind: "a socket")
            }
            throw CryptoError.keyStorage(path: filePath, operation: "open", errno: code)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw CryptoError.keyStorage(path: filePath, operation: "fstat", errno: errno)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw CryptoError.notARegularFile(path: filePath, kind: Self.kind(status))
        }
        guard status.st_mode & 0o077 == 0 else {
            throw CryptoError.insecurePermissions(
                path: filePath, mode: status.st_mode,
                reason: "private key file is accessible by group or others; chmod 600 it")
        }
        guard status.st_uid == geteuid() else {
            throw CryptoError.foreignOwner(path: filePath, owner: status.st_uid, expected: geteuid())
        }
        // A PEM P-256 key is a few hundred bytes; the cap keeps a wrong file from being read whole.
        let limit = 64 * 1024
        var content = [UInt8](repeating: 0, count: limit)
        var total = 0
        while total < limit {
            let count = content.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + total, limit - total)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw CryptoError.keyStorage(path: filePath, operation: "read", errno: errno)
            }
            if count == 0 { break }
            total += count
        }
        return String(decoding: content.prefix(total), as: UTF8.self)
    }

    /// Writes `content` as `name` atomically: a temporary file created 0600, synced, then renamed into place,
    /// then the directory synced so the new name survives a crash.
    func writePrivateFileAtomically(named name: String, content: String) throws {
        let finalPath = path + "/" + name
        let temporaryPath = path + "/.tmp-" + SecureRandom.hexToken(byteCount: 8)
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw CryptoError.keyStorage(path: temporaryPath, operation: "open", errno: errno)
        }
        var renamed = false
        defer { if !renamed { unlink(temporaryPath) } }
        do {
            defer { close(descriptor) }
            // The umask can only remove bits, but set the mode explicitly so the intent does not depend on it.
            guard fchmod(descriptor, 0o600) == 0 else {
                throw CryptoError.keyStorage(path: temporaryPath, operation: "fchmod", errno: errno)
            }
            let bytes = Array(content.utf8)
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { buffer in
                    write(descriptor, buffer.baseAddress! + written, bytes.count - written)
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw CryptoError.keyStorage(path: temporaryPath, operation: "write", errno: errno)
                }
                written += count
            }
            guard fsync(descriptor) == 0 else {
                throw CryptoError.keyStorage(path: temporaryPath, operation: "fsync", errno: errno)
            }
        }
        guard rename(temporaryPath, finalPath) == 0 else {
            throw CryptoError.keyStorage(path: finalPath, operation: "rename", errno: errno)
        }
        renamed = true
        syncDirectory()
    }

    /// Runs `body` holding an exclusive `flock` on the directory itself (Linux locks directories too, so no lock
    /// file is left among the keys): two rotations read, check and write the key files one after the other, where
    /// two `rotate --at` at once both found no staged key and both staged one. Released when the descriptor
    /// closes, however the process ends.
    func withExclusiveLock<Result>(_ body: () throws -> Result) throws -> Result {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CryptoError.keyStorage(path: path, operation: "open", errno: errno) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw CryptoError.keyStorage(path: path, operation: "flock", errno: errno) }
        }
        return try body()
    }

    /// Renames a file within the directory, atomically, and makes the rename durable.
    func move(named name: String, to newName: String) throws {
        let newPath = path + "/" + newName
        guard Glibc.rename(path + "/" + name, newPath) == 0 else {
            throw CryptoError.keyStorage(path: newPath, operation: "rename", errno: errno)
        }
        syncDirectory()
    }

    func remove(named name: String) throws {
        let filePath = path + "/" + name
        guard unlink(filePath) == 0 else {
            throw CryptoError.keyStorage(path: filePath, operation: "unlink", errno: errno)
        }
        syncDirectory()
    }

    private func syncDirectory() {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        // Best effort: some file systems refuse fsync on directories, and the rename itself has happened.
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// What a file is, as the refusals say it.
    private static func kind(_ status: stat) -> String {
        switch status.st_mode & S_IFMT {
        case S_IFREG: "a file"
        case S_IFDIR: "a folder"
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a device"
        }
    }

}
