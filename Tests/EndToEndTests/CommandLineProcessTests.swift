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
}
