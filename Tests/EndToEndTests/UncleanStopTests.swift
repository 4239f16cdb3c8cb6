import Foundation
import Testing

/// A start after `kill -9` says so; a start after a clean stop does not (operator probe, 7 December: both read alike).
@Suite("A start after an unclean stop", .serialized)
struct UncleanStopTests {
    /// The real binary on `dataDir`, listening, its log going to `logFile`.
    static func start(_ binary: URL, dataDir: String, logFile: String) throws -> Process {
        FileManager.default.createFile(atPath: logFile, contents: nil)
        return try DurabilityTests.Server(binary: binary, dataDirectory: dataDir, log: FileHandle(forWritingTo: URL(fileURLWithPath: logFile))).process
    }

    @Test func aStartAfterAKillNamesTheKilledProcessAndAStartAfterACleanStopDoesNot() throws {
        let binary = try #require(DurabilityTests.binary, "trust-insights is not built; run `swift build` first")
        let folder = NSTemporaryDirectory() + "trust-insights-unclean-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let dataDir = folder + "/data"
        func log(_ name: String) throws -> String { try String(contentsOfFile: folder + "/" + name, encoding: .utf8) }

        let killed = try Self.start(binary, dataDir: dataDir, logFile: folder + "/first.log")
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()

        // A start that fails after taking the folder (a key file it cannot read) leaves the kill for the start that
        // serves to report (regression probe, 7 December: a supervisor's next start said nothing).
        let junk = dataDir + "/signing-keys/es256-1796604200000-aaaaaaaaaaaaaaaa.pem"
        FileManager.default.createFile(atPath: junk, contents: Data("junk\n".utf8), attributes: [.posixPermissions: 0o600])
        let failing = Process()
        failing.executableURL = binary
        failing.arguments = DurabilityTests.Server.arguments(dataDirectory: dataDir)
        failing.standardOutput = FileHandle.nullDevice
        failing.standardError = FileHandle.nullDevice
        try failing.run()
        failing.waitUntilExit()
        #expect(failing.terminationStatus != 0)
        try FileManager.default.removeItem(atPath: junk)

        let afterKill = try Self.start(binary, dataDir: dataDir, logFile: folder + "/second.log")
        afterKill.terminate()
        afterKill.waitUntilExit()
        let second = try log("second.log")
        #expect(second.contains(#""event":"the last run did not stop cleanly","previousProcess":\#(killed.processIdentifier),"walBytes":"#), "\(second)")
        #expect(try FileManager.default.attributesOfItem(atPath: dataDir + "/serve.lock")[.size] as? Int == 0)

        let afterStop = try Self.start(binary, dataDir: dataDir, logFile: folder + "/third.log")
        afterStop.terminate()
        afterStop.waitUntilExit()
        let third = try log("third.log")
        #expect(third.contains(#""event":"stopped""#), "\(third)")
        #expect(!third.contains("did not stop cleanly"), "\(third)")
    }
}
