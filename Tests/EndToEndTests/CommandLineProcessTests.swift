import Foundation
import Testing

/// The command line as a process: what a script sees of it, exit statuses included.
@Suite struct CommandLineProcessTests {
    /// A reader that went away (`| head -c1`) is a failed write like any other: exit 1 with `cannot write standard
    /// output`, not a death by SIGPIPE (status 141 to a shell).
    @Test func aClosedPipeIsExitOneNotASignal() throws {
        let binary = try #require(DurabilityTests.binary, "the trust-insights binary is built before the tests")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["simulate", "--category", "payment", "--rows", "200000", "--out", "-",
                             "--config-dir", LiveService.repositoryRoot + "/config"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read a little, then stop reading: the next writes find no reader.
        _ = output.fileHandleForReading.readData(ofLength: 16)
        try output.fileHandleForReading.close()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 1)
        #expect(String(decoding: message, as: UTF8.self).contains("cannot write standard output"))
    }

    /// A run killed half-way, even by SIGKILL, leaves the old file and nothing beside it: the rows go into an
    /// unnamed file (O_TMPFILE) that gets a name only when complete. A hidden `.keep.csv.XXXXXX` of 61 MB was left
    /// by each interrupted `simulate` before (pipeline probe, 6 December).
    @Test func aKilledRunLeavesTheOldFileAndNothingElse() throws {
        let binary = try #require(DurabilityTests.binary, "the trust-insights binary is built before the tests")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("killed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: folder + "/keep.csv"))
        let process = Process()
        process.executableURL = binary
        process.arguments = ["simulate", "--category", "payment", "--rows", "50000000", "--out", folder + "/keep.csv",
                             "--config-dir", LiveService.repositoryRoot + "/config"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Until the rows are being written (the unnamed file takes space in the folder's file system, not a name).
        let deadline = Date().addingTimeInterval(20)
        var written = false
        while Date() < deadline, !written {
            Thread.sleep(forTimeInterval: 0.05)
            written = Self.openFileSize(of: process.processIdentifier) > 100_000
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(written, "the run was writing rows when it was killed")
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["keep.csv"])
        #expect(try String(contentsOfFile: folder + "/keep.csv", encoding: .utf8) == "old\n")
    }

    /// The size of the largest regular file the process has open for writing, through /proc.
    private static func openFileSize(of pid: Int32) -> Int {
        let descriptors = "/proc/\(pid)/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: descriptors) else { return 0 }
        var largest = 0
        for name in names {
            var status = stat()
            if stat(descriptors + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                largest = max(largest, Int(status.st_size))
            }
        }
        return largest
    }
}
