#if canImport(Glibc)
import Glibc
#endif
import InsightModel

/// Where a command's `--out` goes. A regular file (or a new one) is replaced whole: written beside it under a
/// temporary name, flushed, then renamed over it, so a reader never sees half of it and a failed write leaves the old
/// one. Anything else (a symbolic link, a device, a pipe) is written through in place: renaming over it would turn
/// `/dev/stdout`, or a FIFO a script reads, into a plain file. A missing folder is an error, not created: a mistyped
/// path should not leave a tree of folders behind.
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String) throws(CommandLineError) {
        do {
            try stream(to: path) { sink in try sink(bytes) }
        } catch let error as CommandLineError {
            throw error
        } catch {
            // `stream` throws only what its sink and this closure throw: CommandLineError.
            throw .failure("cannot write \(path): \(error)")
        }
    }

    /// The process's file mode creation mask, read without changing it (Linux 4.7 and later report it in
    /// /proc/self/status); where it cannot be read, the strictest answer.
    static func currentUmask() -> mode_t {
        let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0o077 }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return 0o077 }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let mask = mode_t(String(line.dropFirst("Umask:".count).filter { $0 != " " && $0 != "\t" }), radix: 8)
        else { return 0o077 }
        return mask & 0o777
    }

    /// Refuses an output that names one of the command's input files, through any path or link: one wrong character
    /// in `--<option>` would otherwise replace a data set or a model with `product`, and the input would be gone.
    ///
    /// `reserved` are paths that need not exist yet but must not be written either: a database's `-wal`, `-shm`
    /// and `-journal`, which SQLite would take for its own (a `-journal` beside a database is a hot journal it
    /// tries to roll back, and read-only opens of the database then fail).
    ///
    /// `serviceFiles` are files the service reads that this command does not (its configuration folder, catalogues,
    /// manifest and models): written over, the next start or reload refuses them and the service goes down.
    ///
    /// `dataFolderFiles` are the other files of a data folder the command does not read.
    static func refuseOverwriting(
        inputs: [String], reserved: [String] = [], reservedFolders: [String] = [], serviceFiles: [String] = [],
        dataFolderFiles: [String] = [], option: String, path: String, with product: String
    ) throws(CommandLineError) {
        // The file is named as the command knows it; the value too when spelt otherwise (through a link, `..`), or
        // the message would seem to quote a value the operator never typed (paths probe, 6 December).
        // Spellings that differ only in `./` and repeated slashes read the same, and get no second name.
        func named(_ file: String) -> String {
            let file = CommandEnvironment.escapingControlCharacters(file, lineBreaksToo: true)
            guard AbsolutePath.spelling(of: file) != AbsolutePath.spelling(of: path) else { return file }
            return "\(file) (the value: \(CommandEnvironment.escapingControlCharacters(path, lineBreaksToo: true)))"
        }
        if let input = inputs.first(where: { isSameFile(path, $0) }) {
            throw .usage("The value for '--\(option)' names the input file \(named(input)): \(product) would overwrite it")
        }
        if let file = serviceFiles.first(where: { isSameFile(path, $0) }) {
            throw .usage("The value for '--\(option)' names \(named(file)), which the service reads (configuration, catalogue, manifest or model): \(product) would overwrite it, and the next start or reload would refuse it")
        }
        if let file = dataFolderFiles.first(where: { isSameFile(path, $0) }) {
            throw .usage("The value for '--\(option)' names \(named(file)), in the service's data folder: \(product) would overwrite it")
        }
        if let file = reserved.first(where: { isSamePlace(path, $0) }) {
            throw .usage("The value for '--\(option)' names \(named(file)), which the service keeps in its data folder (the database, the files SQLite keeps beside it, or the signing keys' folder): \(product) may not be written there")
        }
        // A new file there is no input yet, but the folder is read whole: the signing keys' folder refuses a start
        // that finds a file in it other users may read.
        // The folder itself may not exist yet (a data folder made by `keys create` before the first start): a name
        // in it is refused all the same, as a usage error, not left to fail as a write into a missing folder.
        if let folder = reservedFolders.first(where: { isInFolder(path, $0) || isSamePlace(Self.folder(of: followingLinks(path)), $0) }) {
            throw .usage("The value for '--\(option)' names a file in \(folder), which the service reads whole: \(product) may not be written there")
        }
    }

    /// Whether `path`, after following symbolic links at its end, is an entry (existing or not) of `folder`.
    static func isInFolder(_ path: String, _ folder: String) -> Bool {
        var a = stat(), b = stat()
        guard stat(Self.folder(of: followingLinks(path)), &a) == 0, stat(folder, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Whether `first` and `second` name the same entry of the same folder, existing or not, after following
    /// symbolic links at the end of `first` (writing follows them, creating a missing target).
    static func isSamePlace(_ first: String, _ second: String) -> Bool {
        let path = followingLinks(first)
        guard name(of: path) == name(of: second) else { return false }
        var a = stat(), b = stat()
        guard stat(folder(of: path), &a) == 0, stat(folder(of: second), &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// The path a write to `first` lands at: symbolic links at its end followed (at most 40, as the kernel does).
    private static func followingLinks(_ first: String) -> String {
        var path = first
        for _ in 0..<40 {
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { break }
            var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &target, target.count - 1)
            guard count > 0 else { break }
            let text = String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            path = text.hasPrefix("/") ? text : folder(of: path) + "/" + text
        }
        return path
    }

    /// The regular files directly inside `folders` (those that exist), for `refuseOverwriting`: a command reading a
    /// data folder or a catalogue must not write its output over any file there.
    static func files(in folders: [String]) -> [String] {
        folders.flatMap { folder -> [String] in
            guard let directory = opendir(folder) else { return [] }
            defer { closedir(directory) }
            var paths: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                guard name != "." && name != ".." else { continue }
                var status = stat()
                let path = folder + "/" + name
                if stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG { paths.append(path) }
            }
            return paths
        }
    }

    /// Writes what `produce` hands its sink, chunk by chunk (`write` hands it all at once). A regular file, or a new
    /// one, is written to a `TemporaryFile` beside it and renamed over it only once complete, so a command killed
    /// half-way (or failing) leaves the old file, never a truncated one that looks whole; anything else is written
    /// through (see the type's comment).
    static func stream<Result>(
        to path: String, _ produce: (_ sink: ([UInt8]) throws -> Void) throws -> Result
    ) throws -> Result {
        let folder = try requireFolder(of: path)
        var status = stat()
        let exists = lstat(path, &status) == 0
        if exists && status.st_mode & S_IFMT != S_IFREG {
            // O_CREAT: a symbolic link whose target does not exist yet is written through too, creating the target.
            let descriptor = open(path, O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else { throw failure(path) }
            let result: Result
            do {
                result = try produce { chunk in try writeAll(chunk, to: descriptor, path: path) }
            } catch {
                close(descriptor)
                throw error
            }
            // A device or a pipe may refuse fsync (EINVAL); what close reports is the last word on the write.
            guard close(descriptor) == 0 else { throw failure(path) }
            return result
        }
        // A new file gets what `open` would give it, 0666 less the umask: metrics and reports can be confidential,
        // and an operator's umask of 077 must keep them private. A replaced one keeps its mode.
        let mode = exists ? status.st_mode & 0o7777 : 0o666 & ~currentUmask()
        var temporary = try TemporaryFile(besideFile: path, in: folder)
        let result: Result
        do {
            result = try produce { chunk in try writeAll(chunk, to: temporary.descriptor, path: path) }
            guard fchmod(temporary.descriptor, mode) == 0, fsync(temporary.descriptor) == 0 else { throw failure(path) }
            try temporary.name()
        } catch {
            temporary.discard()
            throw error
        }
        guard let named = temporary.closing(), rename(named, path) == 0 else {
            let error = failure(path)
            temporary.discard()
            throw error
        }
        // The rename is durable once the folder's entry is.
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
        return result
    }

    /// True when both paths name one existing regular file (through links too), by device and inode. Devices and
    /// pipes (`/dev/stdout`, a FIFO) are written through, never replaced, so naming one twice destroys nothing.
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        var a = stat(), b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0, a.st_mode & S_IFMT == S_IFREG else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Fails unless the folder `path` would be written in exists; a long command checks before it starts.
    @discardableResult
    static func requireFolder(of path: String) throws(CommandLineError) -> String {
        let folder = folder(of: path)
        var status = stat()
        guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw .failure("cannot write \(path): no folder \(folder)")
        }
        return folder
    }

    /// Writes every byte, retrying short writes and EINTR; `simulate` streams its rows through it too.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(CommandLineError) {
        let failed = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                offset += written
            }
            return false
        }
        if failed { throw failure(path) }
    }

    private static func failure(_ path: String) -> CommandLineError {
        .failure("cannot write \(path): \(FileErrorText.reason(code: errno))")
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
