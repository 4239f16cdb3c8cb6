import Foundation
import Synchronization
import Testing
import InsightCrypto

@testable import TrustInsightsApp

/// `signing-keys list|rotate` on a data folder of its own.
@Suite final class SigningKeysCommandTests {
    static let repositoryRoot = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
    let directory = NSTemporaryDirectory() + "signing-keys-command-" + UUID().uuidString

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Status, and standard output and error together.
    func run(_ arguments: [String]) -> (status: Int32, output: String) {
        let run = CommandRun(["signing-keys"] + arguments + ["--data-dir", directory, "--config", Self.repositoryRoot + "/config/default.json"])
        return (run.status, run.output + run.errors)
    }

    /// A folder with neither a database nor keys is a mistyped --data-dir, refused as `keys list` refuses it; a
    /// folder with a database and no key yet (made by `keys create`) is told its first key is still to come.
    @Test func listingAFolderWithoutADatabaseIsRefusedAndCreatesNothing() {
        let (status, output) = run(["list"])
        #expect(status == 1)
        #expect(output.contains("no database and no signing keys at \(directory): check --data-dir"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/signing-keys"))
        createDatabase()
        let (fresh, freshOutput) = run(["list"])
        #expect(fresh == 0)
        #expect(freshOutput.contains("No signing keys yet"), "\(freshOutput)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/signing-keys"))
    }

    /// A folder the service has never started in (or a mistyped --data-dir): rotating there would leave a key that
    /// start-up takes for the sign of a lost database.
    @Test func rotatingInAFolderWithoutADatabaseIsRefusedAndCreatesNothing() {
        let (status, output) = run(["rotate"])
        #expect(status == 1)
        #expect(output.contains("no database at \(directory)/"), "\(output)")
        #expect(output.contains("check --data-dir"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/signing-keys"))
    }

    /// What the service's first start leaves: a database (made here through `keys create`, which may create it).
    func createDatabase() {
        let created = CommandRun(
            ["keys", "create", "--tenant", "acme", "--role", "client", "--env", "sandbox", "--data-dir", directory,
             "--config", Self.repositoryRoot + "/config/default.json"])
        #expect(created.status == 0, "\(created.errors)")
    }

    @Test func listNamesTheActiveKeyAndTheRetiredOnesAsTheAPIDoes() throws {
        createDatabase()
        #expect(run(["rotate"]).status == 0)
        #expect(run(["rotate"]).status == 0)
        let keys = try SigningKeyFiles(directory: directory + "/signing-keys").existing()
        let (status, output) = run(["list"])
        #expect(status == 0)
        let lines = output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(keys[0].kid) == true && lines.first?.hasSuffix("retired") == true)
        #expect(lines.last?.hasPrefix(keys[1].kid) == true && lines.last?.hasSuffix("active") == true)
    }

    @Test func rotateAtStagesAKeyThatListsAsStagedUntilARotationActivatesIt() throws {
        createDatabase()
        // Before any key signs, a key staged alone would sign at once: refused, nothing written.
        let alone = run(["rotate", "--at", "2099-01-01T00:00:00Z"])
        #expect(alone.status != 0 && alone.output.contains("without --at first"), "\(alone.output)")
        // Starting the service instead makes the first key only where no evaluation was answered (signing probe).
        #expect(alone.output.contains("where the database holds no evaluation yet"), "\(alone.output)")
        #expect(try SigningKeyFiles(directory: directory + "/signing-keys").existing().isEmpty)
        #expect(run(["rotate"]).status == 0)
        let staged = run(["rotate", "--at", "2099-01-01T00:00:00.250Z"])
        #expect(staged.status == 0, "\(staged.output)")
        #expect(staged.output.contains("staged") && staged.output.contains("2099-01-01T00:00:00.250Z") && staged.output.contains("SIGHUP"))
        var keys = try SigningKeyFiles(directory: directory + "/signing-keys").existing()
        #expect(keys.count == 2)
        var lines = run(["list"]).output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(keys[0].kid) == true && lines.first?.hasSuffix("active") == true)
        #expect(lines.last == "\(keys[1].kid)  2099-01-01T00:00:00.250Z  staged")

        // A second staged key, a time that has passed and one that is no time are refused, and change nothing.
        let again = run(["rotate", "--at", "2099-06-01T00:00:00Z"])
        #expect(again.status != 0 && again.output.contains("\(keys[1].kid) is already staged to sign from 2099-01-01T00:00:00.250Z"), "\(again.output)")
        // The time as given, whatever the calendar: Foundation's formatter turned 1500-03-01 into 1500-02-20.
        let past = run(["rotate", "--at", "1500-03-01T00:00:00Z"])
        #expect(past.status == 64 && past.output.contains("after now, and 1500-03-01T00:00:00Z is not"), "\(past.output)")
        // RFC 3339 §5.6: a lowercase t and z are the same time (and this one is refused only as a second staged key).
        let lowercase = run(["rotate", "--at", "2099-06-01t00:00:00z"])
        #expect(lowercase.status != 0 && lowercase.output.contains("is already staged"), "\(lowercase.output)")
        let garbage = run(["rotate", "--at", "2099-02-30T00:00:00Z"])
        #expect(garbage.status != 0 && garbage.output.contains("'--at'"), "\(garbage.output)")
        #expect(try SigningKeyFiles(directory: directory + "/signing-keys").existing().count == 2)

        let activated = run(["rotate"])
        #expect(activated.status == 0 && activated.output.contains("staged signing key \(keys[1].kid) is active now"), "\(activated.output)")
        keys = try SigningKeyFiles(directory: directory + "/signing-keys").existing()
        #expect(keys.count == 2)
        lines = run(["list"]).output.split(separator: "\n")
        #expect(lines.first?.hasSuffix("retired") == true && lines.last?.hasSuffix("active") == true && lines.last?.hasPrefix(keys[1].kid) == true)
    }

    /// A clock set back since a key file was written: each form of the command refuses, changing nothing, and says
    /// what it would have done wrong: a plain rotation would make no new key, `--at` would stage none (the message
    /// once gave the plain rotation's consequence for both; read-through, 6 December).
    @Test func rotatingWithTheClockBehindAKeyFilesTimeSaysWhatEachFormWouldHaveDone() throws {
        createDatabase()
        #expect(run(["rotate"]).status == 0)
        let folder = directory + "/signing-keys"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".pem") })
        var ahead = [timespec(tv_sec: time(nil) + 86_400, tv_nsec: 0), timespec(tv_sec: time(nil) + 86_400, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, folder + "/" + name, &ahead, 0) == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let plain = run(["rotate"])
        #expect(plain.status == 1 && plain.output.contains("when \(folder)/\(name) was last written"), "\(plain.output)")
        #expect(plain.output.contains("make no new key") && !plain.output.contains("stage none"), "\(plain.output)")
        let staged = run(["rotate", "--at", "2099-01-01T00:00:00Z"])
        #expect(staged.status == 1 && staged.output.contains("stage none") && !staged.output.contains("make no new key"), "\(staged.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)
    }
}
