import Foundation
import Synchronization
import Testing
import InsightCore
@testable import InsightStore

@testable import TrustInsightsApp

/// `keys create|list|revoke|reinstate` on a data folder of its own.
@Suite final class KeysCommandTests {
    static let repositoryRoot = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
    let directory = NSTemporaryDirectory() + "keys-command-" + UUID().uuidString

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        let run = CommandRun(["keys"] + arguments + ["--data-dir", directory, "--config", Self.repositoryRoot + "/config/default.json"])
        return (run.status, run.output, run.errors)
    }

    @Test func createMakesTheDatabaseAndSaysSoAndPrintsTheSecretOnItsOwnLine() throws {
        let (status, output, errors) = run(["create", "--tenant", "acme", "--role", "client", "--env", "production"])
        #expect(status == 0)
        #expect(errors.contains("Created a new database at \(directory)/\(SQLiteStore.fileName)"))
        let secret = try #require(output.split(separator: "\n").last.map(String.init))
        #expect(APIKeySecret(presented: secret) != nil)
        let listed = run(["list"])
        #expect(listed.status == 0 && listed.output.contains("acme") && !listed.output.contains(secret))
        #expect(!run(["create", "--tenant", "acme", "--role", "partner", "--env", "sandbox"]).errors.contains("Created"))
    }

    /// A tenant whose row is gone while its keys remain has lost its subject key: a new key of that tenant is refused,
    /// since the fresh subject key it would bring matches none of the hashed refs kept (opt-outs stopped counting;
    /// regression probe, 7 December). A new tenant beside it is created as usual.
    @Test func createRefusesATenantWhoseRowIsGoneWhileItsKeysRemain() throws {
        #expect(run(["create", "--tenant", "gamma", "--role", "client", "--env", "sandbox"]).status == 0)
        do {
            let connection = try SQLiteConnection(path: directory + "/" + SQLiteStore.fileName)
            try connection.execute("PRAGMA foreign_keys=OFF")
            try connection.execute("DELETE FROM tenant WHERE tenant_id = 'gamma'")
        }
        let refused = run(["create", "--tenant", "gamma", "--role", "partner", "--env", "sandbox"])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("the tenant gamma has keys or opt-outs in the database but no row in its tenant table"), "\(refused.errors)")
        #expect(refused.errors.contains("restore the database from a backup") && refused.output.isEmpty)
        let listed = run(["list"])
        #expect(listed.output.components(separatedBy: "gamma").count == 2, "one key of gamma, as before: \(listed.output)")
        #expect(run(["create", "--tenant", "delta", "--role", "partner", "--env", "sandbox"]).status == 0)
    }

    /// `keys create` on a database of an older release migrates it, as `serve` would at its start, and says so
    /// (backup probe, 6 December: it migrated without a word); a database already current gets no such line.
    @Test func createOnAnOlderDatabaseSaysItMigratesIt() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let older = SQLiteStore.schemaVersion - 1
        let connection = try SQLiteConnection(path: directory + "/" + SQLiteStore.fileName)
        try Migrator(Array(Schema.migrator.migrations.prefix(older))).migrate(connection)
        let (status, _, errors) = run(["create", "--tenant", "acme", "--role", "client", "--env", "production"])
        #expect(status == 0, "\(errors)")
        #expect(errors.contains("Migrating \(directory)/\(SQLiteStore.fileName) from schema version \(older) to \(SQLiteStore.schemaVersion)."))
        let again = run(["create", "--tenant", "acme", "--role", "client", "--env", "production"])
        #expect(again.status == 0 && !again.errors.contains("Migrating"))
    }

    /// A secret printed into a full disk or a closed pipe reached nobody: the key is revoked, not left live.
    @Test func aSecretThatCouldNotBePrintedLeavesNoActiveKey() throws {
        let created = CommandRun(
            ["keys", "create", "--tenant", "acme", "--role", "client", "--env", "sandbox", "--data-dir", directory,
             "--config", Self.repositoryRoot + "/config/default.json"],
            outputFault: "No space left on device")
        #expect(created.status == 1)
        #expect(created.errors.contains("cannot write standard output (No space left on device)"))
        #expect(created.errors.contains("was revoked"))
        let listed = run(["list"])
        #expect(listed.output.contains("revoked") && !listed.output.contains("active"))
    }

    /// Any command that succeeded but lost its standard output exits 1, saying why.
    @Test func aCommandWhoseOutputWasLostFails() {
        let listed = CommandRun(["version"], outputFault: "Broken pipe")
        #expect(listed.status == 1)
        #expect(listed.errors.contains("Error: cannot write standard output: Broken pipe"))
        #expect(CommandRun(["version"]).status == 0)
        #expect(CommandRun(["--version"]).output == CommandRun(["version"]).output)
        #expect(CommandRun(["--version", "x"]).status == 64)
    }

    /// Columns line up whatever the values' lengths: a 64-character tenant name and `production` pushed the
    /// columns after them out of line when the widths were fixed.
    @Test func listLinesUpItsColumnsForLongValues() {
        let tenant = String(repeating: "t", count: 64)
        #expect(run(["create", "--tenant", tenant, "--role", "analyst", "--env", "production"]).status == 0)
        #expect(run(["create", "--tenant", "acme", "--role", "client", "--env", "sandbox"]).status == 0)
        let lines = run(["list"]).output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        for header in ["ROLE", "ENV", "STATUS", "CREATED"] {
            let column = lines[0].range(of: header).map { lines[0].distance(from: lines[0].startIndex, to: $0.lowerBound) }
            for line in lines.dropFirst() {
                let start = line.index(line.startIndex, offsetBy: column ?? 0)
                #expect(column != nil && start > line.startIndex && line[line.index(before: start)] == " " && line[start] != " ",
                        "\(header) starts a value at column \(column ?? -1): \(line)")
            }
        }
    }

    /// A key with its own rate and no burst has twice the rate, which `list` says rather than "default" (which
    /// would read as the service's default burst).
    @Test func listShowsTheBurstAKeyWithItsOwnRateHas() {
        #expect(run(["create", "--tenant", "acme", "--role", "client", "--env", "production", "--rate", "5"]).status == 0)
        #expect(run(["create", "--tenant", "acme", "--role", "client", "--env", "production"]).status == 0)
        #expect(run(["create", "--tenant", "acme", "--role", "client", "--env", "production", "--rate", "2.5"]).status == 0)
        let listed = run(["list"]).output
        #expect(listed.contains("10 (2 x rate)"))
        #expect(listed.contains("default"))
        // Twice the rate rounded up (RATE-LIMITS.md), said so: 6, where "2 x rate" would read as 5.
        #expect(listed.contains("6 (2 x rate rounded up)"))
    }

    /// The command takes what config/rate-limits.json takes: the burst a `--rate` alone gives (twice the rate) can
    /// also be asked for, and the file's smallest rate too.
    @Test func rateAndBurstTakeTheRangesOfTheRateLimitsFile() {
        let create = ["create", "--tenant", "acme", "--role", "client", "--env", "production"]
        #expect(run(create + ["--rate", "1000000", "--burst", "2000000"]).status == 0)
        #expect(run(create + ["--rate", "1000000", "--burst", "10000000"]).status == 0)
        #expect(run(create + ["--rate", "0.0001"]).status == 0)
        #expect(run(create + ["--rate", "5", "--burst", "10000001"]).status == 64)
        #expect(run(create + ["--rate", "0.00001"]).status == 64)
        #expect(run(create + ["--rate", "1000001"]).status == 64)
    }

    @Test(arguments: [["list"], ["revoke", "k0123456789abcdef"], ["reinstate", "k0123456789abcdef"]])
    func otherCommandsRefuseAFolderWithoutADatabaseAndCreateNothing(arguments: [String]) {
        let (status, _, errors) = run(arguments)
        #expect(status == 1)
        #expect(errors.contains("no database at \(directory)/\(SQLiteStore.fileName): check --data-dir"))
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    /// `list` only reads (README): a database of an older schema is refused as `export` refuses it, not migrated,
    /// which would have left a backup its own release could no longer open. `signing-keys list` likewise.
    @Test func listRefusesADatabaseOfAnotherSchemaRatherThanMigrateIt() throws {
        #expect(run(["create", "--tenant", "acme", "--role", "client", "--env", "production"]).status == 0)
        let path = directory + "/" + SQLiteStore.fileName
        try SQLiteConnection(path: path).execute("PRAGMA user_version = 5")
        let listed = run(["list"])
        #expect(listed.status == 1)
        #expect(listed.errors.contains("has schema version 5, and this trust-insights reads version \(SQLiteStore.schemaVersion) only"), "\(listed.errors)")
        #expect(listed.errors.contains("it only reads, so it will not migrate the database"))
        // keys create makes no signing key: the list must read the database to say whether one was lost.
        let signing = CommandRun(["signing-keys", "list", "--data-dir", directory, "--config", Self.repositoryRoot + "/config/default.json"])
        #expect(signing.status == 1)
        #expect(signing.errors.contains("has schema version 5"), "\(signing.errors)")
        #expect(try SQLiteStore.storedSchemaVersion(inDirectory: directory) == 5, "nothing migrated")
    }

    /// A database of the release before, with that release's server still running on the folder: the commands that
    /// write would migrate it under the server, which then answered every evaluation 503 (upgrade probe, 6
    /// December). Refused, naming the server, until it is gone; then the command migrates as before.
    @Test func theWritingCommandsDoNotMigrateADatabaseUnderARunningServer() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let older = SQLiteStore.schemaVersion - 1
        // The older server's own connection, open as long as it runs (its WAL index with it).
        var server: SQLiteConnection? = try SQLiteConnection(path: directory + "/" + SQLiteStore.fileName)
        try Migrator(Array(Schema.migrator.migrations.prefix(older))).migrate(try #require(server))
        var lock: DataFolderLock? = try DataFolderLock(dataDir: directory)
        for arguments in [["create", "--tenant", "acme", "--role", "client", "--env", "production"], ["revoke", "k0123456789abcdef"],
                          ["reinstate", "k0123456789abcdef"]] {
            let refused = run(arguments)
            #expect(refused.status == 1, "\(arguments): \(refused.errors)")
            #expect(refused.errors.contains("has schema version \(older), which this trust-insights would migrate to \(SQLiteStore.schemaVersion), and a server (process \(getpid())) is using the data folder"),
                    "\(refused.errors)")
            #expect(!refused.errors.contains("Migrating"))
        }
        #expect(try SQLiteStore.storedSchemaVersion(inDirectory: directory) == older, "nothing migrated")
        withExtendedLifetime((lock, server)) {}
        lock = nil
        server = nil
        let created = run(["create", "--tenant", "acme", "--role", "client", "--env", "production"])
        #expect(created.status == 0, "\(created.errors)")
        #expect(created.errors.contains("Migrating \(directory)/\(SQLiteStore.fileName) from schema version \(older) to \(SQLiteStore.schemaVersion)."))
        #expect(try SQLiteStore.storedSchemaVersion(inDirectory: directory) == SQLiteStore.schemaVersion)
    }

    @Test func aPastedSecretIsNeitherEchoedNorActedOn() throws {
        let created = run(["create", "--tenant", "acme", "--role", "client", "--env", "production"])
        let secret = try #require(created.output.split(separator: "\n").last.map(String.init))
        let keyID = try #require(APIKeySecret(presented: secret)).keyID
        let (status, output, errors) = run(["revoke", secret])
        #expect(status == 64)
        #expect(!(output + errors).contains(secret))
        #expect(errors.contains("that is a key's secret, not its ID: its ID is \(keyID)"))
        #expect(run(["list"]).output.contains("active"), "nothing was revoked")
        // Copied from an Authorization header, with its scheme: the same.
        let withScheme = run(["revoke", "Bearer \(secret)"])
        #expect(withScheme.status == 64)
        #expect(!(withScheme.output + withScheme.errors).contains(secret))
        #expect(withScheme.errors.contains("its ID is \(keyID)"))
    }

    @Test func anUnknownIDIsRepeatedOnlyWhenItHasTheShapeOfAnID() {
        _ = run(["create", "--tenant", "acme", "--role", "client", "--env", "production"])
        #expect(run(["revoke", "k0123456789abcdef"]).errors.contains("no key with ID k0123456789abcdef in this data folder"))
        let typed = run(["revoke", "hunter2-password"])
        #expect(typed.status == 64, "not an ID's shape is a usage error")
        #expect(!typed.errors.contains("hunter2") && typed.errors.contains("that is not a key ID"))
    }

    @Test func revokeAndReinstateChangeTheStatus() throws {
        let created = run(["create", "--tenant", "acme", "--role", "client", "--env", "production"])
        let keyID = try #require(APIKeySecret(presented: String(created.output.split(separator: "\n").last!))).keyID
        #expect(run(["revoke", keyID]).output.contains("Key \(keyID) is now revoked."))
        #expect(run(["list"]).output.contains("revoked"))
        #expect(run(["reinstate", keyID]).status == 0)
        #expect(run(["list"]).output.contains("active"))
    }

    @Test func aBurstWithoutARateOrALimitOnAKeyThatIsNeverLimitedIsRefused() {
        let burstAlone = run(["create", "--tenant", "acme", "--role", "client", "--env", "production", "--burst", "5"])
        #expect(burstAlone.status == 64)
        #expect(burstAlone.errors.contains("'--burst' needs '--rate'"))
        for role in ["partner", "analyst"] {
            let limited = run(["create", "--tenant", "acme", "--role", role, "--env", "production", "--rate", "5", "--burst", "10"])
            #expect(limited.status == 64)
            #expect(limited.errors.contains("apply to client keys only"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory), "a refused command creates no database")
        #expect(run(["create", "--tenant", "acme", "--role", "client", "--env", "production", "--rate", "5", "--burst", "10"]).status == 0)
    }
}
