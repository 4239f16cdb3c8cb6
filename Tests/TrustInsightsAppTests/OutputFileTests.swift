import Foundation
import Testing

@testable import TrustInsightsApp

/// `--out` of export, report, train and models: replaced whole when a regular file, written through otherwise.
@Suite final class OutputFileTests {
    let folder = NSTemporaryDirectory() + "output-file-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    private func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).map(\.intValue) ?? -1
    }

    @Test func writesANewFileAndReplacesAnOldOneKeepingItsMode() throws {
        let path = folder + "/figures.json"
        try OutputFile.write(Array("first".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")
        // A new file gets what any new file gets here (0666 less the umask), as `touch` would give it.
        let touched = folder + "/touched"
        close(open(touched, O_CREAT | O_WRONLY, 0o666))
        #expect(try mode(path) == mode(touched))
        #expect(try mode(path) == Int(0o666 & ~OutputFile.currentUmask()))
        unlink(touched)
        chmod(path, 0o600)
        try OutputFile.write(Array("second".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        #expect(try mode(path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["figures.json"], "no temporary file is left")
    }

    @Test func writesThroughASymbolicLinkAndLeavesTheLink() throws {
        let target = folder + "/target.json"
        let link = folder + "/link.json"
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try OutputFile.write(Array("new".utf8), to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
        // A link whose target is not there yet is written through as well, creating the target.
        let dangling = folder + "/dangling.json"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: folder + "/later.json")
        try OutputFile.write(Array("made".utf8), to: dangling)
        #expect(try String(contentsOfFile: folder + "/later.json", encoding: .utf8) == "made")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling) == folder + "/later.json")
    }

    @Test func writesIntoAPipeAScriptReads() async throws {
        let fifo = folder + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = Task.detached { () -> String in
            let handle = FileHandle(forReadingAtPath: fifo)!
            return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        }
        try OutputFile.write(Array("through the pipe".utf8), to: fifo)
        #expect(await received.value == "through the pipe")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "still a FIFO, not replaced by a file")
    }

    @Test func aMissingFolderIsAnErrorAndIsNotCreated() {
        let path = folder + "/no/such/folder/figures.json"
        #expect(throws: CommandLineError.failure("cannot write \(path): no folder \(folder)/no/such/folder")) {
            try OutputFile.write(Array("x".utf8), to: path)
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/no"))
    }

    @Test func aDeviceThatRefusesTheBytesIsAnError() {
        #expect(throws: CommandLineError.failure("cannot write /dev/full: no space left on device")) {
            try OutputFile.write(Array(repeating: 1, count: 100_000), to: "/dev/full")
        }
        var status = stat()
        #expect(lstat("/dev/full", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "the device is still a device")
    }

    @Test func aFolderIsNotAFile() {
        #expect(throws: CommandLineError.failure("cannot write \(folder): is a directory")) {
            try OutputFile.write(Array("x".utf8), to: folder)
        }
    }
}
