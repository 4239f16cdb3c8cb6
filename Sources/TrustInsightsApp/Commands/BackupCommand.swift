import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import InsightCore
import InsightCrypto
import InsightStore
import InsightModel

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
            guard !out.isEmpty else { throw CommandLineError.usage("The value for '--out' must name a folder") }
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
            let (target, existed) = try target(of: out)
            // Everything is written into a hidden folder first and put in place at the end: a run that is
            // interrupted (Ctrl-C, a cancelled `kubectl exec`, SIGKILL) leaves that folder, never a half-written
            // backup under the name asked for. A half-copied database with its rollback journal there read as an
            // empty database, and `serve` started on it as a first start (backup probe, 6 December). The hidden
            // folder sits beside the target and is renamed onto it, in one step, whether the target is new or an
            // empty folder (rename(2) replaces an empty directory). Only where that cannot be done, an empty folder
            // that is a mount point or whose parent this user may not write (a volume mounted at /backup), it sits
            // inside, and its files are moved up one by one, the keys and then the database.
            let movesUp = existed && !canReplace(target)
            let token = SecureRandom.hexToken(byteCount: 6)
            // `.<name>.partial-<token>` beside it, unless that would pass NAME_MAX (a name of 235 to 255 bytes
            // could not be backed up to, regression probe, 6 December).
            let besideName = "." + OutputFile.name(of: target) + ".partial-" + token
            let staging = movesUp
                ? target + "/.partial-" + token
                : OutputFile.folder(of: target) + "/"
                    + (besideName.utf8.count <= Int(NAME_MAX) ? besideName : ".trust-insights-backup.partial-" + token)
            guard mkdir(staging, 0o700) == 0 else {
                // Named for the --out the operator gave; the staging folder is ours (regression probe, 7 December).
                throw CommandLineError.failure(
                    "cannot write the backup to \(target): \(FileErrorText.reason(code: errno)) (making \(staging) to fill first)")
            }
            var finished = false
            var movedKeys = false
            defer {
                if !finished {
                    removeTree(staging)
                    if movedKeys { removeTree(target + "/signing-keys") }
                }
            }
            let started = Clock.nowMilliseconds()
            let summary: SQLiteConnection.BackupSummary
            do {
                let store = try SQLiteReadOnlyStore(directory: dataDir)
                // Keys gone from a folder that signed answers: the copy would not start either (`serve` refuses it).
                try folder.checkSigningKeys(store: store)
                summary = try store.read { connection in try connection.backUp(to: staging + "/" + SQLiteStore.fileName) }
            } catch let error as CommandLineError {
                throw error
            } catch {
                throw CommandLineError.failure("cannot back up \(folder.databasePath): \(error)\(DamagedDatabase.advice(for: error, databasePath: folder.databasePath))")
            }
            // Another program's database (or ours read through its -wal) copies and checks as well as ours, and the
            // backup then would not start (regression probe, 7 December): refused as the reading commands refuse it.
            guard summary.schemaVersion > 0 else {
                throw CommandLineError.failure(
                    "cannot back up \(folder.databasePath): it is not a trust-insights database (schema version 0), or a -wal "
                        + "file of another database sits beside it; check --data-dir (or dataDir in the configuration)")
            }
            // After the database: keys are only ever added, so every key the copied database's answers were signed
            // with is among them (a rotation meanwhile adds one more, which is harmless).
            let keyIDs: [String]
            do {
                keyIDs = try SigningKeyFiles(directory: dataDir + "/signing-keys").copyKeyFiles(to: staging + "/signing-keys")
            } catch {
                throw CommandLineError.failure("cannot back up the signing keys in \(dataDir)/signing-keys: \(error)")
            }
            syncFolder(staging)
            let taken = "it is no longer empty (another backup or program wrote into it meanwhile)"
            if movesUp {
                // Made private first, so that no moment has the backup in place in a folder others may enter.
                if chmod(target, 0o700) != 0 {
                    environment.printError(
                        "warning: \(target) keeps its mode (chmod: \(FileErrorText.reason(code: errno))): the files in it are 0600 and signing-keys/ 0700, but others may list or rename them")
                }
                if !keyIDs.isEmpty {
                    guard rename(staging + "/signing-keys", target + "/signing-keys") == 0 else {
                        let reason = errno == ENOTEMPTY || errno == EEXIST ? taken : FileErrorText.reason(code: errno)
                        throw CommandLineError.failure("cannot put the backup in place in \(target): \(reason)")
                    }
                    movedKeys = true
                }
                // A link, not a rename, which would replace a database another run put there meanwhile.
                guard link(staging + "/" + SQLiteStore.fileName, target + "/" + SQLiteStore.fileName) == 0 else {
                    let reason = errno == EEXIST ? taken : FileErrorText.reason(code: errno)
                    throw CommandLineError.failure("cannot put the backup in place in \(target): \(reason)")
                }
                unlink(staging + "/" + SQLiteStore.fileName)
                rmdir(staging)
                syncFolder(target)
            } else {
                guard rename(staging, target) == 0 else {
                    let reason = errno == ENOTEMPTY || errno == EEXIST ? taken : FileErrorText.reason(code: errno)
                    throw CommandLineError.failure("cannot put the backup in place at \(target): \(reason)")
                }
                syncFolder(OutputFile.folder(of: target))
            }
            finished = true
            let milliseconds = Clock.nowMilliseconds() - started
            let databaseCopy = out + "/" + SQLiteStore.fileName
            environment.print(
                "Backed up \(folder.databasePath) (\(summary.bytes) bytes, schema version \(summary.schemaVersion), checked) to \(databaseCopy) in \(milliseconds) ms.")
            environment.print(keyIDs.isEmpty
                ? "No signing keys to copy: \(dataDir)/signing-keys holds none, and the database holds no signed evaluation."
                : "Copied \(keyIDs.count) signing key\(keyIDs.count == 1 ? "" : "s") (\(keyIDs.joined(separator: ", "))) to \(out)/signing-keys.")
            environment.print(
                "To restore: stop the service and start it on \(out) (--data-dir), or move these files into its empty data folder.")
            return 0
        }
    }

    /// Where the backup's folder goes, and whether it is there already: `out` when it does not exist (its parent
    /// must: a mistyped path should not leave a tree of folders behind), else the empty folder it names, through a
    /// symbolic link if it is one.
    private static func target(of out: String) throws(CommandLineError) -> (path: String, existed: Bool) {
        var status = stat()
        guard stat(out, &status) == 0 else {
            try OutputFile.requireFolder(of: out)
            return (out, false)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .usage("The value for '--out' names \(out), which is not a folder: a backup is written into a new or empty folder")
        }
        let names = entries(of: out)
        if let leftover = names.first(where: { $0.hasPrefix(".partial-") }) {
            throw .usage("The value for '--out' names \(out), which holds \(leftover): a backup still running into it, or one that was interrupted (if none is running, delete it and anything beside it), or choose another folder")
        }
        guard names.isEmpty else {
            throw .usage("The value for '--out' names \(out), which is not empty: a backup is written into a new or empty folder, so that it never mixes with another")
        }
        guard access(out, W_OK) == 0 else { throw .failure("cannot write into \(out): permission denied") }
        guard let resolved = realpath(out, nil) else { return (out, true) }
        defer { free(resolved) }
        return (String(cString: resolved), true)
    }

    /// Whether a folder beside `target` can be renamed onto it: its parent is writable and it is no mount point
    /// (rename(2) across one fails with EXDEV or EBUSY).
    private static func canReplace(_ target: String) -> Bool {
        let parent = OutputFile.folder(of: target)
        var own = stat(), above = stat()
        guard access(parent, W_OK) == 0, stat(target, &own) == 0, stat(parent, &above) == 0 else { return false }
        return own.st_dev == above.st_dev
    }

    /// Removes a folder this run made, with what it holds.
    private static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
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

    /// The names in a folder; none when it cannot be read.
    private static func entries(of path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    private static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}
