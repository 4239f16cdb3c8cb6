import Foundation
import Synchronization
import InsightStore
import Testing

@testable import TrustInsightsApp

/// `trust-insights backup`: a copy taken while the service serves is a data folder of its own, holding what was
/// committed before it and nothing after, with its keys, as private as the original; and a backup that cannot be
/// finished leaves nothing that looks like one.
@Suite struct BackupCommandTests {
    private static func temporaryFolder(_ name: String) -> String { InProcessCommand.temporaryFolder(name) }

    private static func run(_ arguments: [String]) -> (status: Int32, text: String) { InProcessCommand.run(arguments) }

    /// A data folder and a backup's destination, both removed after `body`.
    private static func withFolders(_ dataName: String, _ outName: String, _ body: (_ dataDir: String, _ out: String) throws -> Void) throws {
        let dataDir = temporaryFolder(dataName), out = temporaryFolder(outName)
        defer {
            try? FileManager.default.removeItem(atPath: dataDir)
            try? FileManager.default.removeItem(atPath: out)
        }
        try body(dataDir, out)
    }

    private static func mode(_ path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0
    }

    private static func count(_ sql: String, in folder: String) throws -> Int {
        let connection = try SQLiteConnection(path: folder + "/" + SQLiteStore.fileName, mode: .readOnly)
        let statement = try connection.statement(sql)
        _ = try statement.step()
        return statement.int(0)
    }

    /// Another program's database in the folder (tables, no schema version) copies and checks as well as ours; the
    /// backup then would not start, so it is refused, and nothing is left at `--out` (regression probe, 7 December).
    @Test func aDatabaseOfAnotherProgramIsNotBackedUp() throws {
        try Self.withFolders("not-ours", "not-ours-backup") { dataDir, out in
            do {
                let service = try LiveService { $0.dataDir = dataDir }
                service.removesDataFolder = false
            }
            let database = dataDir + "/" + SQLiteStore.fileName
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            do {
                let other = try SQLiteConnection(path: database)
                try other.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
                try other.checkpoint()
            }
            let result = Self.run(["backup", "--out", out, "--data-dir", dataDir])
            #expect(result.status == 1, "\(result.text)")
            #expect(result.text.contains("cannot back up \(database): it is not a trust-insights database (schema version 0)"), "\(result.text)")
            #expect(!FileManager.default.fileExists(atPath: out + "/" + SQLiteStore.fileName))
        }
    }

    @Test func aBackupTakenWhileServingStartsAsADataFolderWithWhatWasCommittedBeforeIt() throws {
        try Self.withFolders("backed-up", "backup") { dataDir, out in
            var service: LiveService? = try LiveService { $0.dataDir = dataDir }
            service?.removesDataFolder = false
            let key = try #require(try service?.key())
            let before = try #require(try service?.evaluate(key: key))
            _ = try service?.evaluate(key: key, account: "acct-second")

            let result = Self.run(["backup", "--out", out, "--data-dir", dataDir])
            #expect(result.status == 0, "\(result.text)")
            #expect(result.text.contains("schema version \(SQLiteStore.schemaVersion), checked"))
            #expect(result.text.contains("Copied 1 signing key"))
            _ = try service?.evaluate(key: key, account: "acct-after-the-backup")
            let original = try #require(service)
            let keysBefore = try original.client().request("GET", "/v1/signing-keys", headers: [("Authorization", "Bearer \(key)")]).body
            service = nil

            #expect(Self.mode(out) == 0o700)
            #expect(Self.mode(out + "/" + SQLiteStore.fileName) == 0o600)
            #expect(Self.mode(out + "/signing-keys") == 0o700)
            let keyFiles = try FileManager.default.contentsOfDirectory(atPath: out + "/signing-keys")
            #expect(keyFiles.count == 1 && keyFiles.allSatisfy { Self.mode(out + "/signing-keys/" + $0) == 0o600 })
            #expect(try Self.count("SELECT count(*) FROM evaluation", in: out) == 2)
            #expect(try Self.count("SELECT count(*) FROM evaluation", in: dataDir) == 3)

            // The copy is a data folder: it starts, knows the evaluation made before the backup, and publishes the
            // same signing key.
            let restored = try LiveService { $0.dataDir = out }
            restored.removesDataFolder = false
            let report = try restored.post(
                "/v1/evaluations/\(before.evaluationID)/consumption", key: key,
                body: #"{"status": "usedIncreasedFriction", "insightIDsUsed": ["\#(before.insightIDs[0])"]}"#)
            #expect(report.status == 201, "\(String(decoding: report.body, as: UTF8.self))")
            let keysAfter = try restored.client().request("GET", "/v1/signing-keys", headers: [("Authorization", "Bearer \(key)")]).body
            #expect(keysAfter == keysBefore)
        }
    }

    @Test func aBackupGoesOnlyIntoANewOrEmptyFolderOutsideTheDataFolder() throws {
        try Self.withFolders("backup-refusals", "backup-not-empty") { dataDir, out in
            let service = try LiveService { $0.dataDir = dataDir }
            service.removesDataFolder = false
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
            #expect(FileManager.default.createFile(atPath: out + "/notes.txt", contents: Data("keep".utf8)))

            let notEmpty = Self.run(["backup", "--out", out, "--data-dir", dataDir])
            #expect(notEmpty.status == 64 && notEmpty.text.contains("which is not empty"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["notes.txt"])

            let inside = Self.run(["backup", "--out", dataDir + "/backup", "--data-dir", dataDir])
            #expect(inside.status == 64 && inside.text.contains("inside the data folder"))
            #expect(!FileManager.default.fileExists(atPath: dataDir + "/backup"))

            let empty = Self.run(["backup", "--out", "", "--data-dir", dataDir])
            #expect(empty.status == 64 && empty.text.contains("must name a folder"))

            let noParent = Self.run(["backup", "--out", out + "/missing/backup", "--data-dir", dataDir])
            #expect(noParent.status == 1 && noParent.text.contains("no folder"))

            let emptyFolder = Self.temporaryFolder("no-database")
            try FileManager.default.createDirectory(atPath: emptyFolder, withIntermediateDirectories: false)
            defer { try? FileManager.default.removeItem(atPath: emptyFolder) }
            let noDatabase = Self.run(["backup", "--out", out + "/new", "--data-dir", emptyFolder])
            #expect(noDatabase.status == 1 && noDatabase.text.contains("no database at"))
            #expect(!FileManager.default.fileExists(atPath: out + "/new"))
        }
    }

    /// A backup folder named with up to NAME_MAX bytes is made, though its hidden partial folder's name would pass
    /// the limit (235 to 255 bytes were refused, regression probe, 6 December).
    @Test func aBackupFolderWithTheLongestNameIsMade() throws {
        try Self.withFolders("backup-long-source", "backup-long") { dataDir, parent in
            do {
                let service = try LiveService { $0.dataDir = dataDir }
                service.removesDataFolder = false
                _ = try service.evaluate(key: try service.key())
            }
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: false)
            let out = parent + "/" + String(repeating: "b", count: 255)
            let result = Self.run(["backup", "--out", out, "--data-dir", dataDir])
            #expect(result.status == 0, "\(result.text)")
            #expect(FileManager.default.fileExists(atPath: out + "/trust-insights.sqlite"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == [String(repeating: "b", count: 255)])
        }
    }

    /// Keys that would not load are no backup: the run fails naming them, and takes away the database it had copied
    /// and the folder it had made.
    @Test func aBackupThatCannotFinishLeavesNothingBehind() throws {
        try Self.withFolders("backup-bad-key", "backup-unfinished") { dataDir, out in
            do {
                let service = try LiveService { $0.dataDir = dataDir }
                service.removesDataFolder = false
                _ = try service.evaluate(key: try service.key())
            }
            let keys = dataDir + "/signing-keys"
            let keyFile = try #require(try FileManager.default.contentsOfDirectory(atPath: keys).first { $0.hasSuffix(".pem") })
            let damaged = keys + "/" + keyFile
            #expect(FileManager.default.createFile(atPath: damaged, contents: Data("not a key".utf8), attributes: [.posixPermissions: 0o600]))

            let result = Self.run(["backup", "--out", out, "--data-dir", dataDir])
            #expect(result.status == 1 && result.text.contains("cannot back up the signing keys") && result.text.contains(keyFile))
            #expect(!FileManager.default.fileExists(atPath: out))
            #expect(try Self.partialFolders(beside: out).isEmpty)

            // An empty folder given as --out is left empty.
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
            #expect(Self.run(["backup", "--out", out, "--data-dir", dataDir]).status == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)

            // Keys gone from a folder that signed answers: the copy would not start, so it is no backup either.
            try FileManager.default.removeItem(atPath: keys)
            let noKeys = Self.run(["backup", "--out", out, "--data-dir", dataDir])
            #expect(noKeys.status == 1 && noKeys.text.contains("no signing key in"), "\(noKeys.text)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
        }
    }

    /// Hidden folders a run writes into before it puts the backup in place.
    private static func partialFolders(beside path: String) throws -> [String] {
        let parent = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: parent).filter { $0.hasPrefix("." + name + ".partial-") }
    }

    /// A backup is written into a hidden folder and put in place whole: beside a new folder, or inside an empty one
    /// (a volume's mount point cannot be renamed over), which is then made private as a new one is. An interrupted
    /// run's hidden folder is named, not mistaken for an empty folder.
    @Test func aBackupIsPutInPlaceWholeAndItsFolderMadePrivate() throws {
        try Self.withFolders("backup-in-place", "backup-open-folder") { dataDir, out in
            let service = try LiveService { $0.dataDir = dataDir }
            service.removesDataFolder = false
            _ = try service.evaluate(key: try service.key())

            let fresh = out + "-new"
            defer { try? FileManager.default.removeItem(atPath: fresh) }
            #expect(Self.run(["backup", "--out", fresh, "--data-dir", dataDir]).status == 0)
            #expect(try Self.partialFolders(beside: fresh).isEmpty)
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: fresh)) == [SQLiteStore.fileName, "signing-keys"])

            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
            #expect(chmod(out, 0o777) == 0)
            let result = Self.run(["backup", "--out", out, "--data-dir", dataDir])
            #expect(result.status == 0, "\(result.text)")
            #expect(Self.mode(out) == 0o700)
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out)) == [SQLiteStore.fileName, "signing-keys"])
            // Renamed onto the empty folder in one step, from beside it.
            #expect(try Self.partialFolders(beside: out).isEmpty)
            #expect(try Self.count("SELECT count(*) FROM evaluation", in: out) == 1)

            let interrupted = out + "-interrupted"
            defer { try? FileManager.default.removeItem(atPath: interrupted) }
            try FileManager.default.createDirectory(atPath: interrupted + "/.partial-0123456789ab", withIntermediateDirectories: true)
            let leftover = Self.run(["backup", "--out", interrupted, "--data-dir", dataDir])
            #expect(leftover.status == 64 && leftover.text.contains(".partial-0123456789ab: a backup still running into it, or one that was interrupted"))
        }
    }
}
