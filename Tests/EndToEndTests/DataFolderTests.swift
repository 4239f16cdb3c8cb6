import Foundation
import Synchronization
import InsightStore
import Testing

@testable import TrustInsightsApp

/// What `serve` does with a data folder another server holds, or one that lost part of itself, and with
/// configuration files it cannot use: it stops, naming the file and what to do, instead of repairing silently.
@Suite struct DataFolderTests {
    private static func temporaryFolder(_ name: String) -> String { InProcessCommand.temporaryFolder(name) }

    private static func run(_ arguments: [String]) -> (status: Int32, text: String) { InProcessCommand.run(arguments) }

    /// Starts a service on `dataDir`, stores one signed evaluation, and stops it, keeping the folder.
    private static func storeOneEvaluation(in dataDir: String) throws {
        let service = try LiveService { $0.dataDir = dataDir }
        service.removesDataFolder = false
        _ = try service.evaluate(key: try service.key())
    }

    @Test func oneServerPerDataFolderAndTheFolderIsFreeOnceItStops() throws {
        let dataDir = Self.temporaryFolder("locked")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        var first: LiveService? = try LiveService { $0.dataDir = dataDir }
        first?.removesDataFolder = false
        #expect {
            _ = try LiveService { $0.dataDir = dataDir }
        } throws: { error in
            guard case .failure(let message) = error as? CommandLineError else { return false }
            return message.contains("another trust-insights serve (process \(getpid())) is using the data folder \(dataDir)")
        }
        first = nil
        let second = try LiveService { $0.dataDir = dataDir }
        #expect(try second.client().request("GET", "/readyz").status == 200)
    }

    /// A server that took the folder an instant ago has not yet written its process ID over the one the last server
    /// left: the loser of two starts at once waits for it rather than name no process, or one that has ended (races
    /// probe, 6 December: 1 race in 16 named none).
    @Test func aStartThatLosesARaceNamesTheWinnerNotTheServerBefore() throws {
        let dataDir = Self.temporaryFolder("lock-race")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        #expect(mkdir(dataDir, 0o700) == 0)
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        try Data("\(ended.processIdentifier)\n".utf8).write(to: URL(fileURLWithPath: dataDir + "/serve.lock"))
        // The winner: the folder's lock taken, its ID written 50 ms later.
        let folder = open(dataDir, O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        #expect(flock(folder, LOCK_EX | LOCK_NB) == 0)
        let writer = Thread {
            usleep(50_000)
            try? Data("\(getpid())\n".utf8).write(to: URL(fileURLWithPath: dataDir + "/serve.lock"))
        }
        writer.start()
        #expect {
            _ = try DataFolderLock(dataDir: dataDir)
        } throws: { error in
            guard case .failure(let message) = error as? CommandLineError else { return false }
            return message.contains("another trust-insights serve (process \(getpid())) is using the data folder \(dataDir)")
        }
        // A winner that never writes one (an ID the file cannot give) is refused all the same, naming no process.
        usleep(100_000)
        try Data("\(ended.processIdentifier)\n".utf8).write(to: URL(fileURLWithPath: dataDir + "/serve.lock"))
        #expect {
            _ = try DataFolderLock(dataDir: dataDir)
        } throws: { error in
            guard case .failure(let message) = error as? CommandLineError else { return false }
            return message.contains("another trust-insights serve is using the data folder \(dataDir)")
        }
    }

    /// A misspelt `TRUST_INSIGHTS_*` variable is named before the settings are checked, so the failure it causes
    /// (the folder it meant to set is the default, and missing) comes with it in the log.
    @Test func aMisspeltVariableIsNamedBeforeTheFailureItCauses() throws {
        let folder = Self.temporaryFolder("misspelt")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = InProcessCommand.run(
            ["serve", "--port", "0", "--data-dir", folder, "--config", LiveService.repositoryRoot + "/config/default.json",
             "--models-dir", folder + "/no-models"],
            variables: ["TRUST_INSIGHTS_MODELSDIR": LiveService.repositoryRoot + "/models"])
        #expect(result.status == 2, "\(result.text)")
        let warning = try #require(result.text.range(of: #""event":"unknown environment variable ignored","name":"TRUST_INSIGHTS_MODELSDIR""#),
                                   "\(result.text)")
        let failure = try #require(result.text.range(of: #""event":"start-up failed""#))
        #expect(warning.lowerBound < failure.lowerBound)
    }

    /// A database file damaged while the service was stopped is refused at start with what to do, as the same
    /// damage found while serving is, not a bare SQLite error each restart repeats.
    @Test func aDamagedDatabaseAtStartSaysWhatToDo() throws {
        let dataDir = Self.temporaryFolder("damaged")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        try Self.storeOneEvaluation(in: dataDir)
        let database = try FileHandle(forWritingTo: URL(fileURLWithPath: dataDir + "/trust-insights.sqlite"))
        try database.write(contentsOf: Data(repeating: 0x41, count: 16))
        try database.close()
        #expect {
            _ = try LiveService { $0.dataDir = dataDir }
        } throws: { error in
            guard case .failure(let message) = error as? CommandLineError else { return false }
            return message.contains("the database file is damaged or is not a database")
                && message.contains("PRAGMA integrity_check") && message.contains("restore it from a backup")
        }
    }

    /// With a `-wal` file beside it, the damage may be the WAL's (another database's, copied in with a backup), and
    /// the advice says how to tell which; the refused start leaves both files as they were (fault probe, 7 December:
    /// it folded a foreign WAL into the database and deleted it).
    @Test func aDamagedDatabaseWithAWALBesideItSaysHowToTellWhichAndWritesNeither() throws {
        let dataDir = Self.temporaryFolder("damaged-wal")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        try Self.storeOneEvaluation(in: dataDir)
        let databasePath = dataDir + "/trust-insights.sqlite"
        let database = try FileHandle(forWritingTo: URL(fileURLWithPath: databasePath))
        try database.write(contentsOf: Data(repeating: 0x41, count: 16))
        try database.close()
        try Data(repeating: 0x57, count: 4096).write(to: URL(fileURLWithPath: databasePath + "-wal"))
        let databaseBefore = try #require(FileManager.default.contents(atPath: databasePath))
        #expect {
            _ = try LiveService { $0.dataDir = dataDir }
        } throws: { error in
            guard case .failure(let message) = error as? CommandLineError else { return false }
            return message.contains("the write-ahead log beside it (\(databasePath)-wal)")
                && message.contains("a -wal file of another database copied in beside it")
                && message.contains("neither file was changed")
                && message.contains("copy \(databasePath) alone to another folder and check the copy")
        }
        #expect(FileManager.default.contents(atPath: databasePath) == databaseBefore)
        #expect(FileManager.default.contents(atPath: databasePath + "-wal") == Data(repeating: 0x57, count: 4096))
    }

    /// Another folder's `-wal` copied in beside a database whose pages the start reads without finding damage was
    /// taken for this database's: the service ran on a mix of the two and its stop folded that into the file
    /// (regression probe, 7 December: 1,614 of 2,020 evaluations gone). Each database's own ID in page 1 tells them
    /// apart: the start and the commands are refused, naming the file, and nothing is written.
    @Test func anotherFoldersWALBesideTheDatabaseIsRefusedAndNothingIsWritten() throws {
        let stopped = Self.temporaryFolder("wal-owner-a")
        let other = Self.temporaryFolder("wal-owner-b")
        defer {
            try? FileManager.default.removeItem(atPath: stopped)
            try? FileManager.default.removeItem(atPath: other)
        }
        let databasePath = stopped + "/trust-insights.sqlite"
        do {
            let service = try LiveService { $0.dataDir = stopped }
            service.removesDataFolder = false
            let key = try service.key()
            for index in 0..<8 { _ = try service.evaluate(key: key, account: "acct-a\(index)", device: "dev-a\(index)") }
        }
        let running = try LiveService { $0.dataDir = other }
        let key = try running.key()
        for index in 0..<12 { _ = try running.evaluate(key: key, account: "acct-b\(index)", device: "dev-b\(index)") }
        // The other folder's WAL as a kill -9 would leave it: copied while its server runs.
        let foreign = try #require(FileManager.default.contents(atPath: other + "/trust-insights.sqlite-wal"))
        try? FileManager.default.removeItem(atPath: databasePath + "-wal")
        try? FileManager.default.removeItem(atPath: databasePath + "-shm")
        try foreign.write(to: URL(fileURLWithPath: databasePath + "-wal"))
        let databaseBefore = try #require(FileManager.default.contents(atPath: databasePath))
        #expect(throws: StoreError.self) { try WALOwnership.check(databasePath: databasePath) }

        #expect {
            _ = try LiveService { $0.dataDir = stopped }
        } throws: { error in
            guard case .failure(let message) = error as? CommandLineError else { return false }
            return message.contains("\(databasePath)-wal is another database's write-ahead log")
                && message.contains("Nothing was changed. Move it out of the folder")
        }
        let listed = InProcessCommand.run(["keys", "list", "--data-dir", stopped])
        #expect(listed.status == 1 && listed.text.contains("is another database's write-ahead log"), "\(listed.text)")
        #expect(FileManager.default.contents(atPath: databasePath) == databaseBefore)
        #expect(FileManager.default.contents(atPath: databasePath + "-wal") == foreign)

        // Moved out, as the message says: the folder starts with all its own evaluations.
        try FileManager.default.removeItem(atPath: databasePath + "-wal")
        let restarted = try LiveService { $0.dataDir = stopped }
        restarted.removesDataFolder = false
        #expect(try restarted.count("SELECT count(*) FROM evaluation") == 8)
    }

    /// A folder the system will not open for this user names its owner and mode as the likely cause (as root, which
    /// these tests may run as, no mode refuses: so the message is checked, not provoked).
    @Test func aDataFolderThisUserMayNotOpenIsSaidToBeAnOwnerOrModeProblem() {
        guard case .failure(let denied) = DataFolderLock.openFailure("/srv/ti", code: EACCES, ownedByThisUser: false),
              case .failure(let ownMode) = DataFolderLock.openFailure("/srv/ti", code: EACCES, ownedByThisUser: true),
              case .failure(let other) = DataFolderLock.openFailure("/srv/ti", code: ELOOP, ownedByThisUser: false)
        else { Issue.record("not a failure"); return }
        #expect(ownMode == "cannot open the data folder /srv/ti: permission denied: the folder is this user's, but its mode does not let them in: chmod 700 /srv/ti")
        #expect(denied == "cannot open the data folder /srv/ti: permission denied: run the service as the user that owns the folder (it is theirs alone, mode 0700), or give the folder to that user; ls -ld /srv/ti shows its owner and mode")
        #expect(other.hasPrefix("cannot open the data folder /srv/ti: ") && !other.contains("owns the folder"))
    }

    /// The lock is the folder's own, not only serve.lock's: deleting the "stale" lock file under a running server let a
    /// second one start on the same folder (and checkpoint its WAL away as it stopped).
    @Test func deletingTheLockFileDoesNotLetASecondServerIn() throws {
        let dataDir = Self.temporaryFolder("lock-deleted")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let first = try LiveService { $0.dataDir = dataDir }
        first.removesDataFolder = false
        #expect(unlink(dataDir + "/serve.lock") == 0)
        #expect {
            _ = try LiveService { $0.dataDir = dataDir }
        } throws: { error in
            guard case .failure(let message) = error as? CommandLineError else { return false }
            return message.contains("is using the data folder \(dataDir)")
        }
        #expect(try first.client().request("GET", "/readyz").status == 200)
    }

    /// A start as root on the service user's folder (refused, say, because the signing keys are that user's) left a
    /// root-owned serve.lock, and every later start as the service's user failed on it (operator probe, 6 December).
    /// A lock file root makes now belongs to the folder's owner and group (group-writable where the folder is, as a
    /// volume root under `fsGroup`); one that was there is left to whoever made it (regression probe: taking it over
    /// locked the service out of a root-owned volume root).
    @Test(.enabled(if: geteuid() == 0, "only root can give a file away"))
    func aLockFileRootMakesBelongsToTheFolderAndOneThatWasThereIsLeftAlone() throws {
        let plain = Self.temporaryFolder("lock-owner")
        let volume = Self.temporaryFolder("lock-volume")
        defer {
            try? FileManager.default.removeItem(atPath: plain)
            try? FileManager.default.removeItem(atPath: volume)
        }
        #expect(mkdir(plain, 0o700) == 0 && chown(plain, 65534, 65534) == 0)
        #expect(mkdir(volume, 0o700) == 0 && chown(volume, 0, 65534) == 0 && chmod(volume, 0o2770) == 0)
        func lockFile(_ folder: String) -> stat {
            var status = stat()
            #expect(stat(folder + "/serve.lock", &status) == 0)
            return status
        }
        try DataFolderLock(dataDir: plain).release()
        #expect(lockFile(plain).st_uid == 65534 && lockFile(plain).st_gid == 65534 && lockFile(plain).st_mode & 0o777 == 0o600)
        try DataFolderLock(dataDir: volume).release()
        #expect(lockFile(volume).st_uid == 0 && lockFile(volume).st_gid == 65534 && lockFile(volume).st_mode & 0o777 == 0o660)

        // The service's own lock file, there before root's start, stays the service's.
        #expect(unlink(volume + "/serve.lock") == 0)
        let made = open(volume + "/serve.lock", O_RDWR | O_CREAT, 0o600)
        #expect(made >= 0 && fchown(made, 65534, 65534) == 0)
        close(made)
        try DataFolderLock(dataDir: volume).release()
        #expect(lockFile(volume).st_uid == 65534 && lockFile(volume).st_mode & 0o777 == 0o600)
    }

    /// serve.lock as a symbolic or hard link to another file: a start (as root above all) truncated that file and
    /// wrote a process ID into it, and then gave it to the folder's owner (regression probe, 6 December). Refused,
    /// and the file is untouched.
    @Test func aLockFileThatIsALinkIsRefusedAndItsTargetUntouched() throws {
        let dataDir = Self.temporaryFolder("lock-link")
        let outside = Self.temporaryFolder("lock-link-target")
        defer {
            try? FileManager.default.removeItem(atPath: dataDir)
            try? FileManager.default.removeItem(atPath: outside)
        }
        #expect(mkdir(dataDir, 0o700) == 0 && mkdir(outside, 0o700) == 0)
        let target = outside + "/precious"
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: target))
        for makeLink in [{ symlink(target, dataDir + "/serve.lock") }, { symlink(outside + "/absent", dataDir + "/serve.lock") },
                         { link(target, dataDir + "/serve.lock") }] {
            #expect(makeLink() == 0)
            #expect {
                _ = try DataFolderLock(dataDir: dataDir)
            } throws: { error in
                guard case .failure(let message) = error as? CommandLineError else { return false }
                return message.contains("refusing \(dataDir)/serve.lock: it is a link or not a regular file")
            }
            #expect(unlink(dataDir + "/serve.lock") == 0)
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
        #expect(!FileManager.default.fileExists(atPath: outside + "/absent"))
        // The folder is free again once the link is gone.
        try DataFolderLock(dataDir: dataDir).release()
    }

    /// The schema's creation (and an upgrade's migrations, which can take a while over a large database) is logged
    /// before the listening line, with the versions and how long it took; a start with nothing to migrate says nothing.
    @Test func theSchemaCreationIsLoggedAndAStartWithNothingToMigrateIsQuiet() throws {
        let dataDir = Self.temporaryFolder("migration-log")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        var first: LiveService? = try LiveService { $0.dataDir = dataDir }
        first?.removesDataFolder = false
        let lines = try #require(first?.logs.lines)
        let creating = lines.filter { $0.contains(#""event":"creating database""#) }
        #expect(creating.count == 1)
        #expect(creating.first?.contains(#""fromSchemaVersion":0,"toSchemaVersion":\#(SQLiteStore.schemaVersion)"#) == true)
        #expect(lines.filter { $0.contains(#""event":"database ready""#) && $0.contains(#""milliseconds":"#) }.count == 1)
        let creatingIndex = try #require(lines.firstIndex { $0.contains("creating database") })
        let listeningIndex = try #require(lines.firstIndex { $0.contains(#""event":"listening""#) })
        #expect(creatingIndex < listeningIndex)
        first = nil
        let second = try LiveService { $0.dataDir = dataDir }
        #expect(!second.logs.lines.contains {
            $0.contains(#""event":"creating database""#) || $0.contains(#""event":"migrating database""#)
                || $0.contains(#""event":"database ready""#)
        })
    }

    /// A database restored with another mode (`sqlite3 .backup` writes 0644) starts, with a warning naming the files.
    @Test func databaseFilesOthersCanReadAreNamedAtStart() throws {
        let dataDir = Self.temporaryFolder("open-modes")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        try Self.storeOneEvaluation(in: dataDir)
        let database = dataDir + "/" + SQLiteStore.fileName
        #expect(chmod(database, 0o644) == 0)
        let service = try LiveService { $0.dataDir = dataDir }
        let warnings = service.logs.lines.filter { $0.contains("\"database files readable by other users\"") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains(database) == true && warnings.first?.contains("\"level\":\"warning\"") == true)
        let usual = try LiveService()
        #expect(!usual.logs.lines.contains { $0.contains("readable by other users") })
    }

    /// Loading ignores them, so nothing else would tell the operator of a private key's copy left readable, or of a
    /// key restored under a name no key file has (signing-keys probe, 5 December).
    @Test func filesInTheSigningKeysFolderThatAreNotKeysAreNamedAtStart() throws {
        let dataDir = Self.temporaryFolder("stray-keys")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        try Self.storeOneEvaluation(in: dataDir)
        let keys = dataDir + "/signing-keys"
        let keyFile = try #require(try FileManager.default.contentsOfDirectory(atPath: keys).first { $0.hasSuffix(".pem") })
        let copy = keys + "/" + keyFile + ".bak"
        #expect(FileManager.default.createFile(atPath: copy, contents: FileManager.default.contents(atPath: keys + "/" + keyFile)))
        #expect(chmod(copy, 0o644) == 0)
        #expect(FileManager.default.createFile(atPath: keys + "/notes.txt", contents: Data("rotated 5 Dec".utf8)))
        #expect(chmod(keys + "/notes.txt", 0o600) == 0)
        let service = try LiveService { $0.dataDir = dataDir }
        let warnings = service.logs.lines.filter { $0.contains("\"signing-keys folder holds files that are not keys\"") }
        #expect(warnings.count == 1)
        let warning = warnings.first ?? ""
        #expect(warning.contains("\"files\":[\"\(keyFile).bak\",\"notes.txt\"]"), "\(warning)")
        #expect(warning.contains("\"readableByOthers\":[\"\(keyFile).bak\"]"), "\(warning)")
        #expect(try service.client().request("GET", "/readyz").status == 200, "a warning, not a refusal")
        let usual = try LiveService()
        #expect(!usual.logs.lines.contains { $0.contains("not keys") })
    }

    /// Another process holding the database (an operator's `sqlite3` left in a transaction): writes answer 503 and
    /// the `storage not writable` line says what the failed write was told, rather than leave the operator to
    /// deduce it (observability probe, 6 December).
    @Test func anotherProcessHoldingTheDatabaseIsNamedInTheLog() throws {
        let dataDir = Self.temporaryFolder("locked-database")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let service = try LiveService { $0.dataDir = dataDir }
        let clientKey = try service.key()
        #expect(try service.evaluate(key: clientKey).insightIDs.count == 2)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); print('held', flush=True); time.sleep(9)",
                            dataDir + "/" + SQLiteStore.fileName]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        _ = output.fileHandleForReading.readData(ofLength: 5)
        let refused = try service.client().request("POST", "/v1/evaluations", headers: [
            ("Authorization", "Bearer \(clientKey)"), ("Content-Type", "application/json"),
        ], body: Requests.payment(account: "acct-locked"))
        #expect(refused.status == 503)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && !service.logs.lines.contains(where: { $0.contains("\"storage not writable\"") }) {
            usleep(50_000)
        }
        let line = service.logs.lines.first { $0.contains("\"storage not writable\"") } ?? ""
        #expect(line.contains("\"lastWriteError\":\"") && line.contains("locked"), "\(line)")
    }

    /// The `-shm` file deleted under a running server (deploy/README.md once said it "need not be kept", which a
    /// cleanup job may read as leave to delete): a `keys revoke` then made a new index the server did not see, said the
    /// key was revoked while it stayed active, and writes of both were lost (storage probe, 5 December). The
    /// commands refuse to open the database, and the server stops acknowledging writes until it is restarted.
    @Test func theWALIndexDeletedUnderARunningServerStopsWritesAndTheCommandsRefuseToOpenTheDatabase() throws {
        let dataDir = Self.temporaryFolder("deleted-shm")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let service = try LiveService { $0.dataDir = dataDir }
        let clientKey = try service.key()
        #expect(try service.evaluate(key: clientKey).insightIDs.count == 2)
        let index = dataDir + "/" + SQLiteStore.fileName + "-shm"
        #expect(unlink(index) == 0)
        // Said by the idle server within a checkpointer tick (500 ms), with no write coming to find it.
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && !service.logs.lines.contains(where: { $0.contains("\"storage not writable\"") }) {
            usleep(50_000)
        }
        let error = service.logs.lines.first { $0.contains("\"storage not writable\"") } ?? ""
        #expect(error.contains("\"replacedFile\":\"\(index)\"") && error.contains("restart the service"), "\(error)")
        // Another program (sqlite3 .backup, say) makes a new index: the commands still see that it is not the
        // server's, from the files the server has open. (Another process: SQLite shares one index per database
        // file among the connections of a process, so a connection of this one would reuse the deleted one.)
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        other.arguments = ["python3", "-c", "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM tenant').fetchall()",
                           dataDir + "/" + SQLiteStore.fileName]
        try other.run()
        other.waitUntilExit()
        #expect(other.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: index), "the other process made a new index")

        for arguments in [["keys", "revoke", "k0123456789abcdef"], ["keys", "list"], ["export", "metrics", "--tenant", "acme"]] {
            let (status, text) = Self.run(arguments + ["--data-dir", dataDir])
            #expect(status == 1, "\(arguments)")
            #expect(text.contains("-shm is not the file the running trust-insights serve") && text.contains("restart the service"), "\(text)")
        }

        let refused = try service.client().request("POST", "/v1/evaluations", headers: [
            ("Authorization", "Bearer \(clientKey)"), ("Content-Type", "application/json"),
        ], body: Requests.payment(account: "acct-after", device: "dev-2"))
        #expect(refused.status == 503)
        // A stop leaves the WAL whole rather than checkpoint by a stale index.
        #expect(service.runtime.store.checkpoint()?.contains("not checkpointed") == true)
    }

    /// A file of the database deleted, or renamed away with a copy put in its place, under a running server: `keys
    /// revoke` wrote into files the server never read, and the running server went on taking the key; a `keys
    /// create` after a WAL was moved aside left the database malformed (regression and guards probes, 5 December).
    /// The commands refuse, whatever name the server's open file now has; in a healthy folder they work.
    @Test(arguments: [("-wal", false), ("-wal", true), ("-shm", true), ("", true)])
    func theCommandsRefuseADatabaseWhoseFileWasReplacedUnderARunningServer(suffix: String, copied: Bool) throws {
        let dataDir = Self.temporaryFolder("replaced-file")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let service = try LiveService { $0.dataDir = dataDir }
        #expect(try service.evaluate(key: try service.key()).insightIDs.count == 2)
        #expect(Self.run(["keys", "list", "--data-dir", dataDir]).status == 0, "no false alarm in a healthy folder")
        let file = dataDir + "/" + SQLiteStore.fileName + suffix
        if copied {
            #expect(rename(file, file + ".aside") == 0)
            try FileManager.default.copyItem(atPath: file + ".aside", toPath: file)
        } else {
            #expect(unlink(file) == 0)
        }
        let (status, text) = Self.run(["keys", "list", "--data-dir", dataDir])
        #expect(status == 1)
        #expect(text.contains("\(file) is not the file the running trust-insights serve"), "\(text)")
        #expect(FileManager.default.fileExists(atPath: file) == copied, "no command made a new file")
    }

    /// A mistyped --data-dir started an empty service with new demo keys wherever it pointed, making every folder on
    /// the way (storage probe, 5 December). The data folder is made; the folders above it must be there. A first
    /// start says so in the JSON log too, not only on standard output.
    @Test func aDataFolderWhoseParentIsMissingIsRefusedAndAFirstStartIsLogged() throws {
        let root = Self.temporaryFolder("missing-parent")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dataDir = root + "/no/such/data"
        #expect {
            _ = try LiveService { $0.dataDir = dataDir }
        } throws: { error in
            guard case .failure(let message) = error as? CommandLineError else { return false }
            return message.contains("the data folder \(dataDir) does not exist, nor does \(root)/no/such")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/no"), "nothing was made")

        let service = try LiveService { $0.dataDir = root + "/data/" }
        service.removesDataFolder = false
        let firstStart = service.logs.lines.filter { $0.contains("\"event\":\"first start\"") }
        #expect(firstStart.count == 1)
        #expect(firstStart.first?.contains("\"sandboxKeys\":\"k") == true, "\(firstStart)")
        #expect(DataFolderLock.parent(of: "data") == "." && DataFolderLock.parent(of: "/data") == "/")
        #expect(DataFolderLock.parent(of: "/a/b/c/") == "/a/b" && DataFolderLock.parent(of: "./x/y") == "./x")
        #expect(DataFolderLock.parent(of: "./d10/.") == "." && DataFolderLock.parent(of: "a/b/./") == "a")
    }

    /// A port another process holds stops the start before the data folder is made: a first start there had made
    /// the folder and printed demo keys, then failed to bind, so its curl example never came and the next start was
    /// no first start (lifecycle probe, 6 December). A second start of the same folder on the same port is told that
    /// the folder is held, the likelier mistake.
    @Test func aTakenPortStopsTheStartBeforeTheDataFolderIsMade() throws {
        let running = try LiveService()
        let empty = Self.temporaryFolder("port-taken")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect {
            _ = try LiveService { $0.dataDir = empty; $0.port = running.port }
        } throws: { error in
            guard case .failure(let message) = error as? CommandLineError else { return false }
            return message.hasPrefix("cannot listen on 127.0.0.1:\(running.port)")
        }
        #expect(!FileManager.default.fileExists(atPath: empty), "nothing was made")
        #expect {
            _ = try LiveService { $0.dataDir = running.dataDirectory; $0.port = running.port }
        } throws: { error in
            guard case .failure(let message) = error as? CommandLineError else { return false }
            return message.contains("another trust-insights serve (process \(getpid())) is using the data folder")
        }
    }

    @Test func aLostDatabaseBesideItsSigningKeysStopsStartUp() throws {
        let dataDir = Self.temporaryFolder("lost-database")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        try Self.storeOneEvaluation(in: dataDir)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: dataDir + "/" + SQLiteStore.fileName + suffix) }
        #expect {
            _ = try LiveService { $0.dataDir = dataDir }
        } throws: { error in
            guard case .failure(let message) = error as? CommandLineError else { return false }
            return message.contains("holds signing keys but no database") && message.contains("restore the database from a backup")
        }
        #expect(!FileManager.default.fileExists(atPath: dataDir + "/" + SQLiteStore.fileName), "no empty database was made")
    }

    /// A signing-keys folder this user cannot read is not taken for an empty one: with the database lost too, start-up
    /// made a new database beside the old keys; with it there, it said the keys were lost. Tests run as root, whom
    /// no mode stops, so a file in the folder's place stands for it (opendir fails either way; found by a probe).
    @Test func aSigningKeysFolderThatCannotBeReadStopsStartUpSayingSo() throws {
        let dataDir = Self.temporaryFolder("unreadable-keys")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        try Self.storeOneEvaluation(in: dataDir)
        try FileManager.default.removeItem(atPath: dataDir + "/signing-keys")
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: dataDir + "/signing-keys"))
        for losesDatabase in [false, true] {
            if losesDatabase {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: dataDir + "/" + SQLiteStore.fileName + suffix) }
            }
            #expect {
                _ = try LiveService { $0.dataDir = dataDir }
            } throws: { error in
                guard case .failure(let message) = error as? CommandLineError else { return false }
                // Named for what is there (a file), not as a folder that cannot be read.
                return message.contains("refusing \(dataDir)/signing-keys: it is a file, not the folder that holds the signing keys")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: dataDir + "/" + SQLiteStore.fileName), "no new database was made")
    }

    /// The likelier loss, since the WAL files are kept on purpose: the database file alone. Opening would make a new
    /// database and reset the WAL over the committed pages it still held (an outside review saw exactly that).
    @Test func aLostDatabaseBesideItsWALStopsStartUpAndKeyCreationAndLeavesTheWALAlone() throws {
        let dataDir = Self.temporaryFolder("lost-database-wal")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        try Self.storeOneEvaluation(in: dataDir)
        let database = dataDir + "/" + SQLiteStore.fileName
        try FileManager.default.removeItem(atPath: database)
        if (try? FileManager.default.attributesOfItem(atPath: database + "-wal")[.size] as? Int) ?? 0 == 0 {
            try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: database + "-wal"))
        }
        let wal = try Data(contentsOf: URL(fileURLWithPath: database + "-wal"))
        let expected = "holds \(database)-wal but no database"
        #expect {
            _ = try LiveService { $0.dataDir = dataDir }
        } throws: { error in
            guard case .failure(let message) = error as? CommandLineError else { return false }
            return message.contains(expected) && message.contains("restore the database from a backup")
        }
        let keys = CommandLineTool(root: RootCommand.spec).run(
            ["keys", "create", "--tenant", "acme", "--role", "client", "--env", "sandbox", "--data-dir", dataDir],
            environment: LiveService.quietEnvironment)
        #expect(keys != 0)
        #expect(!FileManager.default.fileExists(atPath: database), "no new database was made")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database + "-wal")) == wal, "the WAL is as it was")
    }

    @Test func lostSigningKeysStopStartUpOnceEvaluationsWereSignedButNotBefore() throws {
        let dataDir = Self.temporaryFolder("lost-keys")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        do {
            // Keys made before any evaluation was answered: a new one verifies everything there is.
            let unused = try LiveService { $0.dataDir = dataDir }
            unused.removesDataFolder = false
        }
        try FileManager.default.removeItem(atPath: dataDir + "/signing-keys")
        try Self.storeOneEvaluation(in: dataDir)
        try FileManager.default.removeItem(atPath: dataDir + "/signing-keys")
        #expect {
            _ = try LiveService { $0.dataDir = dataDir }
        } throws: { error in
            guard case .failure(let message) = error as? CommandLineError else { return false }
            return message.contains("no signing key in \(dataDir)/signing-keys")
                && message.contains("'trust-insights signing-keys rotate --data-dir \(dataDir)'")
        }
        #expect(!FileManager.default.fileExists(atPath: dataDir + "/signing-keys"), "no new key was made")
        // `signing-keys list` says the same, rather than that the first key is still to come.
        let (status, text) = Self.run(["signing-keys", "list", "--data-dir", dataDir])
        #expect(status == 1)
        #expect(text.contains("no signing key in \(dataDir)/signing-keys"), "\(text)")
        #expect(!text.contains("No signing keys yet"))
    }

    @Test func aManifestWithoutALoadableModelStopsStartUpAsInvalidConfiguration() throws {
        let models = Self.temporaryFolder("no-models")
        defer { try? FileManager.default.removeItem(atPath: models) }
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: false)
        let manifest = models + "/manifest.json"
        try Data(#"{"formatVersion": 1, "models": []}"#.utf8).write(to: URL(fileURLWithPath: manifest))
        // Refused before the data folder is touched: no folder made, no database created or migrated.
        let dataDir = Self.temporaryFolder("untouched")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        #expect(throws: CommandLineError.configuration(key: manifest, message: "lists no models: every insight would answer insightUnavailable")) {
            _ = try LiveService {
                $0.modelsDir = models
                $0.dataDir = dataDir
            }
        }
        #expect(!FileManager.default.fileExists(atPath: dataDir))
        let shipped = try String(contentsOfFile: LiveService.repositoryRoot + "/models/manifest.json", encoding: .utf8)
        try Data(shipped.utf8).write(to: URL(fileURLWithPath: manifest))
        #expect {
            _ = try LiveService { $0.modelsDir = models }
        } throws: { error in
            guard case .configuration(let key, let message) = error as? CommandLineError else { return false }
            return key == manifest && message.contains("none of its") && message.contains("models could be loaded")
        }
    }

    /// Only `<category>.json` is read from config/features: a misspelt copy or an edit saved under another name changed
    /// nothing without a word (carried from a catalogue probe). They are named at start.
    @Test func filesInTheFeatureCatalogueFolderThatAreNotCataloguesAreNamedAtStart() throws {
        let config = try LiveService.configFolder(rateLimits: String(
            contentsOfFile: LiveService.repositoryRoot + "/config/rate-limits.json", encoding: .utf8))
        defer { try? FileManager.default.removeItem(atPath: config) }
        try FileManager.default.copyItem(atPath: config + "/features/payment.json", toPath: config + "/features/paymnet.json")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: config + "/features/payment.json.new"))
        let service = try LiveService { $0.configDir = config }
        let warnings = service.logs.lines.filter { $0.contains("\"feature catalogue folder holds files that are not catalogues\"") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("\"files\":[\"payment.json.new\",\"paymnet.json\"]") == true, "\(warnings)")
        let usual = try LiveService()
        #expect(!usual.logs.lines.contains { $0.contains("not catalogues") })
    }

    @Test func anInvalidVelocityOrRateLimitFileIsInvalidConfigurationNamingFileAndValue() throws {
        // Valid alone, but without a counter the catalogue's models read as a computed feature.
        let withoutACounter = try String(contentsOfFile: LiveService.repositoryRoot + "/config/velocity.json", encoding: .utf8)
            .split(separator: "\n").filter { !$0.contains(#""evaluationsPerAccount1h""#) }.joined(separator: "\n")
        for (file, edit, expected) in [
            ("velocity.json", #"{"formatVersion": 1, "counters": [], "rules": [], "colour": 1}"#, "at /colour: unknown key"),
            ("velocity.json", withoutACounter, "at /counters: no counter named evaluationsPerAccount1h, which the"),
            ("rate-limits.json", "{", "not valid JSON"),
            ("velocity.json", nil, "no such file"),
        ] as [(String, String?, String)] {
            let config = try LiveService.configFolder(rateLimits: String(
                contentsOfFile: LiveService.repositoryRoot + "/config/rate-limits.json", encoding: .utf8))
            defer { try? FileManager.default.removeItem(atPath: config) }
            let path = config + "/" + file
            if let edit {
                try Data(edit.utf8).write(to: URL(fileURLWithPath: path))
            } else {
                try FileManager.default.removeItem(atPath: path)
            }
            #expect {
                _ = try LiveService { $0.configDir = config }
            } throws: { error in
                guard case .configuration(let key, let message) = error as? CommandLineError else { return false }
                return key == path && message.contains(expected) && (error as! CommandLineError).exitStatus == 2
            }
        }
    }

    @Test func rateLimitRangesAreWrittenAsTheNumbersTheyAre() throws {
        var policy = try String(contentsOfFile: LiveService.repositoryRoot + "/config/rate-limits.json", encoding: .utf8)
        policy = policy.replacingOccurrences(of: #""windowSeconds": "#, with: #""windowSeconds": -5, "x": "#)
        let config = try LiveService.configFolder(rateLimits: policy)
        defer { try? FileManager.default.removeItem(atPath: config) }
        #expect {
            _ = try LiveService { $0.configDir = config }
        } throws: { error in
            guard case .configuration(_, let message) = error as? CommandLineError else { return false }
            return message.contains("expected an integer from ") && !message.contains(".0 to")
        }
    }
}
