#if canImport(Glibc)
import Glibc
#endif

/// Which of the database files a running server has open are no longer the files at their paths, read from
/// `/proc/<pid>/fd` (the commands run as the service's user, which may read it). A database, WAL or WAL index
/// deleted or replaced under the server is still open in it; a command that opened the files at the paths would
/// work on other files than the server, and each would miss or overwrite what the other writes.
struct ServerOpenFiles {
    let pid: Int

    /// The first of `paths` that the server has open as another file than the one now at the path (or a deleted
    /// one); nil when every file it has open is the one at its path, or when `/proc/<pid>/fd` cannot be read.
    func replaced(among paths: [String]) -> String? {
        let canonical = paths.map { (given: $0, path: Self.canonical($0)) }
        let folder = "/proc/\(pid)/fd"
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            guard name != ".", name != "..", let target = Self.link(folder + "/" + name) else { continue }
            for file in canonical {
                if target == file.path + " (deleted)" { return file.given }
                guard target == file.path else { continue }
                var open = stat()
                var atPath = stat()
                guard stat(folder + "/" + name, &open) == 0 else { continue }
                if stat(file.path, &atPath) != 0 || open.st_dev != atPath.st_dev || open.st_ino != atPath.st_ino {
                    return file.given
                }
            }
        }
        return nil
    }

    /// The path as the kernel names it in `/proc`: the folder resolved, the file's own name kept (it may be gone).
    private static func canonical(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let resolved = realpath(folder.isEmpty ? "/" : folder, nil) else { return path }
        defer { free(resolved) }
        let base = String(cString: resolved)
        return (base == "/" ? "" : base) + "/" + name
    }

    private static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink(path, &buffer, 4096)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
