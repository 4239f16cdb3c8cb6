import Foundation
import Glibc
import Testing

@testable import TrustInsightsApp

/// A named pipe or a file where the data folder keeps its database or its signing keys is refused by what it is, at
/// once (CLI probe, 7 December: a pipe as the database was called "missing or empty", and SQLite opening one would
/// wait on it; the keys folder replaced said "opendir ... Not a directory" with a hint about its owner).
@Suite final class DataFolderEntryKindTests {
    static let repositoryRoot = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
    let directory = NSTemporaryDirectory() + "data-folder-kind-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func run(_ arguments: [String]) -> CommandRun {
        CommandRun(arguments + ["--data-dir", directory, "--config", Self.repositoryRoot + "/config/default.json"])
    }

    @Test func aNamedPipeAsTheDatabaseIsRefusedByEveryCommand() {
        let database = directory + "/trust-insights.sqlite"
        #expect(mkfifo(database, 0o600) == 0)
        let refusal = "refusing \(database): it is a named pipe, not a database file"
        for arguments in [
            ["keys", "list"], ["keys", "create", "--tenant", "t", "--role", "client", "--env", "sandbox"],
            ["export", "metrics", "--tenant", "t", "--out", directory + "-metrics.json"], ["backup", "--out", directory + "-backup"],
            ["signing-keys", "list"], ["signing-keys", "rotate"],
        ] {
            let started = ContinuousClock.now
            let run = run(arguments)
            #expect(run.status == 1 && run.errors.contains(refusal), "\(arguments): \(run.errors)")
            #expect(ContinuousClock.now - started < .seconds(10), "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/signing-keys"))
    }

    /// A folder has a size, and was taken for a database: `signing-keys rotate` wrote a key beside it (regression
    /// probe, 7 December).
    @Test func aFolderAsTheDatabaseIsRefusedAndNoKeyIsWritten() throws {
        let database = directory + "/trust-insights.sqlite"
        try FileManager.default.createDirectory(atPath: database, withIntermediateDirectories: false)
        for arguments in [["signing-keys", "rotate"], ["signing-keys", "list"], ["keys", "list"], ["backup", "--out", directory + "-backup"]] {
            let run = run(arguments)
            #expect(run.status == 1 && run.errors.contains("refusing \(database): it is a folder, not a database file"), "\(arguments): \(run.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/signing-keys"))
    }

    @Test func aNamedPipeAsTheSigningKeysFolderIsNamedWithoutAnOwnerHint() {
        let keys = directory + "/signing-keys"
        #expect(mkfifo(keys, 0o600) == 0)
        let created = run(["keys", "create", "--tenant", "t", "--role", "client", "--env", "sandbox"])
        #expect(created.status == 1, "\(created.errors)")
        #expect(created.errors.contains(
            "refusing \(keys): it is a named pipe, not the folder that holds the signing keys"),
            "\(created.errors)")
        #expect(!created.errors.contains("owned by"), "\(created.errors)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/trust-insights.sqlite"))
    }
}
