#if canImport(Glibc)
import Glibc
#endif
import InsightCore
import InsightCrypto
import InsightStore

/// `trust-insights backup --out <folder>`: a consistent copy of a data folder, taken while the service runs, with
/// nothing but this binary (a container image has no `sqlite3`). The database goes through SQLite's online backup
/// (one snapshot as of one commit), then the signing keys are copied; the folder written is itself a data folder
/// that `serve --data-dir` starts on. deploy/README.md, "Backups".
enum BackupCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "backup",
            abstract: "Copy the data folder's database and signing keys into a new folder, consistently, while the service runs.",
            options: [
                .value("out", "folder", help: "A new or empty folder to write the backup into (made 0700; its parent must exist). It holds secrets' hashes and the private signing keys: keep it as private as the data folder.", required: true),
            ] + KeysCommand.dataOptions
        ) { arguments, environment in
            var out = try arguments.required("out")
            while out.count > 1 && out.hasSuffix("/") { out.removeLast() }
            let configuration = try ConfigurationLoader.load(arguments: arguments, variables: environment.variables) { path in
                try FileSystem.readFile(atPath: path)
            }
            let dataDir = configuration.dataDir
            let folder = DataFolderState(dataDir: dataDir)
            try folder.checkReachable()
            guard folder.holdsDatabase else {
                throw CommandLineError.failure(
                    "no database at \(folder.databasePath): check --data-dir (or dataDir in the configuration)")
            }
            try folder.checkServerFilesBeforeOpening()
            try refuseInside(dataDir: dataDir, out: out)
            let madeFolder = try prepare(out: out)
            let started = Clock.nowMilliseconds()
            let databaseCopy = out + "/" + SQLiteStore.fileName
            let keysCopy = out + "/signing-keys"
            var finished = false
            defer {
                // A backup that stopped half-way must not look like one: take away what this run wrote.
                if !finished {
                    unlink(databaseCopy)
                    for name in entries(of: keysCopy) { unlink(keysCopy + "/" + name) }
                    rmdir(keysCopy)
                    if madeFolder { rmdir(out) }
                }
            }
            let summary: SQLiteConnection.BackupSummary
            do {
                let store = try SQLiteReadOnlyStore(directory: dataDir)
                summary = try store.read { connection in try connection.backUp(to: databaseCopy) }
            } catch {
                throw CommandLineError.failure("cannot back up \(folder.databasePath): \(error)")
            }
            // After the database: keys are only ever added, so every key the copied database's answers were signed
            // with is among them (a rotation meanwhile adds one more, which is harmless).
            let keyIDs: [String]
            do {
                keyIDs = try SigningKeyFiles(directory: dataDir + "/signing-keys").copyKeyFiles(to: keysCopy)
            } catch {
                throw CommandLineError.failure("cannot back up the signing keys in \(dataDir)/signing-keys: \(error)")
            }
            syncFolder(out)
            finished = true
            let milliseconds = Clock.nowMilliseconds() - started
            environment.print(
                "Backed up \(folder.databasePath) (\(summary.bytes) bytes, schema version \(summary.schemaVersion), checked) to \(databaseCopy) in \(milliseconds) ms.")
            environment.print(keyIDs.isEmpty
                ? "No signing keys to copy: \(dataDir)/signing-keys holds none."
                : "Copied \(keyIDs.count) signing key\(keyIDs.count == 1 ? "" : "s") (\(keyIDs.joined(separator: ", "))) to \(keysCopy).")
            environment.print(
                "To restore: stop the service and start it on \(out) (--data-dir), or move these files into its empty data folder.")
            return 0
        }
    }

    /// A new folder (0700) or an empty one; returns whether this run made it. A missing parent is an error, as for
    /// every `--out`: a mistyped path should not leave a tree of folders behind.
    private static func prepare(out: String) throws(CommandLineError) -> Bool {
        var status = stat()
        if stat(out, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw .usage("The value for '--out' names \(out), which is not a folder: a backup is written into a new or empty folder")
            }
            guard entries(of: out).isEmpty else {
                throw .usage("The value for '--out' names \(out), which is not empty: a backup is written into a new or empty folder, so that it never mixes with another")
            }
            guard access(out, W_OK) == 0 else { throw .failure("cannot write into \(out): permission denied") }
            return false
        }
        try OutputFile.requireFolder(of: out)
        guard mkdir(out, 0o700) == 0 else {
            throw .failure("cannot make the folder \(out): \(String(cString: strerror(errno)))")
        }
        return true
    }

    /// A backup inside the data folder goes with it when the disk or the folder is lost, and the service would
    /// find a second database among its files.
    private static func refuseInside(dataDir: String, out: String) throws(CommandLineError) {
        guard let data = realpath(dataDir, nil) else { return }
        defer { free(data) }
        let dataPath = String(cString: data)
        // The nearest existing folder of `out`, resolved: `out` itself need not exist yet.
        var candidate = out
        while true {
            if let resolved = realpath(candidate, nil) {
                defer { free(resolved) }
                let path = String(cString: resolved)
                if path == dataPath || path.hasPrefix(dataPath == "/" ? "/" : dataPath + "/") {
                    throw .usage("The value for '--out' names \(out), inside the data folder \(dataDir): a backup there is lost with the folder; write it elsewhere")
                }
                return
            }
            guard let slash = candidate.lastIndex(of: "/") else {
                guard candidate != "." else { return }
                candidate = "."
                continue
            }
            guard slash != candidate.startIndex else { return }
            candidate = String(candidate[..<slash])
        }
    }

    /// The names in a folder but `.` and `..`; none when it cannot be read.
    private static func entries(of path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    private static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}
