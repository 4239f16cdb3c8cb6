import InsightCrypto
import InsightModel
import InsightStore
#if canImport(Glibc)
import Glibc
#endif

/// Start-up checks for a data folder that lost part of itself. A first start creates the database, the demo keys
/// and a signing key, so a folder missing one of them would be "repaired" without a word: a lost database would
/// come back empty with new demo secrets and every issued key gone, and a lost signing key would be replaced by one
/// that no earlier `signedPayload` verifies with. Both are an operator's call, so the service stops and says so.
struct DataFolderState {
    let dataDir: String

    var databasePath: String { dataDir + "/" + SQLiteStore.fileName }
    private var signingKeys: SigningKeyFiles { SigningKeyFiles(directory: dataDir + "/signing-keys") }

    /// True when the folder holds a database: what every command but `serve` and `keys create` requires, since
    /// opening one creates it. A database in WAL mode is never an empty file: SQLite writes its first page, which
    /// records the mode, before any WAL frame.
    /// Only a regular file counts: a folder has a size too.
    var holdsDatabase: Bool {
        var status = stat()
        return stat(databasePath, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && status.st_size > 0
    }

    /// A WAL with frames but no database beside it: the database file went, and the WAL holds only the pages
    /// written since the last checkpoint, so opening would start a new database and reset the WAL over them.
    private var holdsOrphanedWAL: Bool {
        !holdsDatabase && (FileSystem.fileSize(atPath: databasePath + "-wal") ?? 0) > 0
    }

    /// Before a command opens the database beside a running server: a database, WAL or WAL index (`-shm`) deleted or
    /// replaced under the server is still open in it, and a command opening the files at their paths would work on
    /// others: a key revoked here never revoked there, writes of each lost, the database corrupted (storage and
    /// regression probes, 5 December: a `-shm` deleted, then made anew by `sqlite3 .backup`, let `keys revoke` say
    /// the key was revoked while the server went on taking it, and the server's shutdown dropped the change).
    /// The server's own open files say it (`ServerOpenFiles`); where they cannot be read, a `-shm` missing beside
    /// a running server does. A database no server has open may well have no `-shm`; nothing is checked then.
    func checkServerFilesBeforeOpening() throws(CommandLineError) {
        guard holdsDatabase, let server = DataFolderLock.holder(dataDir: dataDir) else { return }
        let process = server > 0 ? " (process \(server))" : ""
        let replaced = server > 0
            ? ServerOpenFiles(pid: server).replaced(
                database: databasePath, folder: dataDir, lockFile: dataDir + "/" + DataFolderLock.fileName)
            : nil
        let missingIndex = FileSystem.fileSize(atPath: databasePath + "-shm") == nil
        guard replaced != nil || missingIndex else { return }
        let what = replaced.map { "\($0) is not the file the running trust-insights serve\(process) has open" }
            ?? "\(databasePath)-shm, the database's WAL index, is missing while trust-insights serve\(process) runs on \(dataDir)"
        throw .failure(
            what + ": it was deleted or replaced under the running server, and a program opening the database now would "
                + "work on other files than the server, so that what either writes is lost and the database corrupted; "
                + "restart the service first (stop it and start it again), then run this again")
    }

    /// A database this account cannot even look for (a data folder of mode 0700 owned by the service's user) read as
    /// "no database", sending the operator to look for a lost file (guards probe, 5 December).
    func checkReachable() throws(CommandLineError) {
        var status = stat()
        guard stat(databasePath, &status) != 0 else { return try checkDatabaseIsAFile(status) }
        guard errno == EACCES else { return }
        throw .failure(
            "cannot reach \(databasePath): permission denied: run the command as the user the service runs as "
                + "(the data folder is theirs alone, mode 0700)")
    }

    /// A named pipe in the database's place was called "missing or empty" where signing keys were beside it, and
    /// SQLite, opening one, would wait on it for data that never comes (CLI probe, 7 December).
    private func checkDatabaseIsAFile(_ status: stat) throws(CommandLineError) {
        guard status.st_mode & S_IFMT != S_IFREG else { return }
        throw .failure(
            "refusing \(databasePath): it is \(RegularFile.kind(of: status)), not a database file: move it away, "
                + "and restore the database from a backup if one was there")
    }

    /// Before the data folder is made: its parent must be a folder already. The service (and `keys create`) make the
    /// data folder, not the folders above it: a mistyped --data-dir would otherwise start an empty service, with
    /// new demo keys, or file a new key in a database no server reads, wherever the typo pointed (storage and
    /// regression probes, 5 December).
    func checkParentBeforeCreating() throws(CommandLineError) {
        guard FileSystem.fileSize(atPath: dataDir) == nil else { return }
        let parent = DataFolderLock.parent(of: dataDir)
        guard !FileSystem.isDirectory(atPath: parent) else { return }
        let state = FileSystem.fileSize(atPath: parent) == nil
            ? "nor does \(parent), the folder that would hold it" : "and \(parent), which would hold it, is not a folder"
        throw .failure(
            "the data folder \(dataDir) does not exist, \(state): check --data-dir (or "
                + "dataDir in the configuration); the service makes its data folder on its first start, but not the "
                + "folders above it")
    }

    /// Before the database is opened (opening creates it): a WAL or signing keys without a database mean the
    /// database went.
    func checkDatabaseBeforeOpening() throws(CommandLineError) {
        var status = stat()
        if stat(databasePath, &status) == 0 { try checkDatabaseIsAFile(status) }
        guard !holdsOrphanedWAL else {
            throw .failure(
                "the data folder \(dataDir) holds \(databasePath)-wal but no database (\(databasePath) is missing or "
                    + "empty): the database file was lost, and its WAL alone cannot rebuild it; restore the database from a "
                    + "backup and leave the WAL beside it; to start afresh on purpose, move the whole folder away first")
        }
        guard !holdsDatabase, try containsSigningKeys() else { return }
        throw .failure(
            "the data folder \(dataDir) holds signing keys but no database (\(databasePath) is missing or empty): "
                + "restore the database from a backup; to start afresh on purpose, move the whole folder away first")
    }

    private func containsSigningKeys() throws(CommandLineError) -> Bool {
        do {
            return try signingKeys.containsKeyFiles()
        } catch let error as CryptoError {
            // The owner is worth a look only when the system refused to read the folder; a file or named pipe put in
            // its place got the same hint (CLI probe, 7 December).
            if case .notAFolder = error { throw .failure("\(error)") }
            guard case .keyStorage(_, _, let code) = error, code == EACCES || code == EPERM else {
                throw .failure("cannot read the signing keys folder \(signingKeys.directory): \(error)")
            }
            throw .failure("cannot read the signing keys folder \(signingKeys.directory): \(error) (is it owned by the user the service runs as?)")
        } catch {
            throw .failure("cannot read the signing keys folder \(signingKeys.directory): \(error)")
        }
    }

    /// For the commands that only read (`export`, `report`, `keys list`): a database of another schema version is
    /// refused rather than migrated, since opening the store to migrate it writes, and they may be pointed at a
    /// folder an older server still runs on, or at a backup that a migration would make unreadable to its release.
    /// Checked through the read-only store the command then reads from, which has checked the `-wal` once (a scan of
    /// the whole file).
    func checkSchemaForReading(_ store: SQLiteReadOnlyStore) throws(CommandLineError) {
        let version: Int
        do {
            version = try store.schemaVersion()
        } catch {
            throw CommandLineError.failure("cannot open the data folder \(dataDir): \(error)\(DamagedDatabase.advice(for: error, databasePath: databasePath))")
        }
        guard version == SQLiteStore.schemaVersion else {
            let what = version == 0 ? "is not a trust-insights database (schema version 0)" : "has schema version \(version)"
            // Only an older database can be brought up to this version; a newer one needs the newer release.
            let advice = version > SQLiteStore.schemaVersion
                ? "it was written by a newer trust-insights: use that release (or a later one) to read it"
                : version == 0
                    ? "check --data-dir (or dataDir in the configuration)"
                    : "it only reads, so it will not migrate the database: use the trust-insights that wrote it, or let "
                        + "`serve` of this version migrate it first"
            throw CommandLineError.failure(
                "\(databasePath) \(what), and this trust-insights reads version \(SQLiteStore.schemaVersion) only; \(advice)")
        }
    }

    /// For the commands that write (`keys create`, `revoke`, `reinstate`), which migrate an older database as they
    /// open it: not while a server holds the folder. That server is of the older release (one of this release
    /// would have migrated the database at its start), and it cannot use the database migrated under it: a
    /// `keys create` run from a newly installed binary before the service's restart left the running server
    /// answering every evaluation 503 (upgrade probe, 6 December).
    func checkNoMigrationUnderAServer() throws(CommandLineError) {
        // The lock first: the version read scans the whole -wal, and the store about to open scans it again.
        guard holdsDatabase, let holder = DataFolderLock.holder(dataDir: dataDir),
              let version = try? SQLiteStore.storedSchemaVersion(inDirectory: dataDir),
              version > 0, version < SQLiteStore.schemaVersion
        else { return }
        throw .failure(
            "\(databasePath) has schema version \(version), which this trust-insights would migrate to "
                + "\(SQLiteStore.schemaVersion), and a server\(holder > 0 ? " (process \(holder))" : "") is using the data "
                + "folder: an older release, which may not be able to use the migrated database and will not start on it "
                + "again. Restart the service with this "
                + "release first (its start migrates the database), then run the command again")
    }

    /// Once the database is open: evaluations were answered, so their signing keys must still be there.
    func checkSigningKeys(store: any DatabaseReading) throws(CommandLineError) {
        guard !(try containsSigningKeys()) else { return }
        let answered: Bool
        do {
            answered = try store.hasEvaluations()
        } catch {
            throw .failure("cannot read the database \(databasePath): \(error)\(DamagedDatabase.advice(for: error, databasePath: databasePath))")
        }
        guard answered else { return }
        throw .failure(
            "no signing key in \(signingKeys.directory), though \(databasePath) holds signed evaluations: restore the key "
                + "files from a backup, or run 'trust-insights signing-keys rotate --data-dir \(dataDir)' to make a new key "
                + "(answers signed before can then no longer be verified)")
    }
}
