import InsightStore

#if canImport(Glibc)
import Glibc
#endif

/// Which of the database files a running server has open are no longer the files at their paths, read from
/// `/proc/<pid>/fd` (the commands run as the service's user, which may read it). A database, WAL or WAL index
/// deleted, renamed away or replaced under the server is still open in it; a command that opened the files at the
/// paths would work on other files than the server, and each would miss or overwrite what the other writes.
///
/// Files are compared by device and inode, not by the names `/proc` shows: a file renamed away shows its new name
/// (guards probe, 5 December: a `-shm` moved aside and a copy put in its place passed a check by name, and a
/// `keys create` then left the database malformed).
struct ServerOpenFiles {
    let pid: Int

    /// The first of `database`, its WAL and its index (`-wal`, `-shm`) that is not the file the server has open;
    /// nil when each is, when the server has not opened the database yet (nothing of the folder open but its lock
    /// and the folder itself), or when `/proc/<pid>/fd` cannot be read.
    func replaced(database: String, folder: String, lockFile: String) -> String? {
        let paths = [database, database + "-wal", database + "-shm"]
        let canonicalFolder = Self.resolved(folder) ?? folder
        let canonicalLock = Self.canonical(lockFile)
        let fdFolder = "/proc/\(pid)/fd"
        guard let directory = opendir(fdFolder) else { return nil }
        defer { closedir(directory) }
        var open = Set<FileIdentity>()
        var opensFolderFiles = false
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            guard name != ".", name != "..", let target = Self.link(fdFolder + "/" + name) else { continue }
            // A file deleted under the server is named so; whatever is at the path now is another file.
            for path in paths where target == Self.canonical(path) + " (deleted)" { return path }
            if let id = FileIdentity(path: fdFolder + "/" + name) { open.insert(id) }
            let named = target.hasSuffix(" (deleted)") ? String(target.dropLast(10)) : target
            if named.hasPrefix(canonicalFolder + "/") && named != canonicalLock { opensFolderFiles = true }
        }
        guard opensFolderFiles else { return nil }
        // Once the server has its database open, all three files at the paths must be the ones it has open.
        for path in paths {
            guard let id = FileIdentity(path: path), open.contains(id) else { return path }
        }
        return nil
    }

    /// The path as the kernel names it in `/proc`: the folder resolved, the file's own name kept (it may be gone).
    private static func canonical(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let base = resolved(folder.isEmpty ? "/" : folder) else { return path }
        return (base == "/" ? "" : base) + "/" + name
    }

    private static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink(path, &buffer, 4096)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
