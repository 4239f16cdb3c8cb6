import Foundation
import Testing

/// SIGHUP reloads the signing keys and the models; the settings files are read at start only. An operator who edited
/// `velocity.json` and sent SIGHUP saw `models reloaded` and nothing about the edit (docs probe, 6 December): the
/// reload now names the files changed since start, which take a restart.
@Suite struct ConfigurationChangeOnReloadTests {
    @Test func aReloadNamesTheSettingsFilesChangedSinceStart() throws {
        let binary = try #require(DurabilityTests.binary, "trust-insights is not built; run `swift build` first")
        let root = NSTemporaryDirectory() + "trust-insights-reload-config-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: LiveService.repositoryRoot + "/config", toPath: root + "/config")
        // Relative paths, from the folder: the log names the files absolute all the same.
        let server = try ServeProcess(binary, arguments: [
            "--port", "0", "--host", "127.0.0.1", "--data-dir", "data", "--config", "./config/default.json",
            "--config-dir", "config", "--models-dir", LiveService.repositoryRoot + "/models",
        ], in: root)
        server.read(until: "\"listening\"")
        server.signal(SIGHUP)
        server.read(until: "\"models reloaded\"")
        // Nothing edited: nothing said.
        #expect(!server.text.contains("configuration changed since start"), "\(server.text)")

        // Written in place (same inode, new size and time), as an editor saving over it does.
        let velocity = root + "/config/velocity.json"
        let edited = try String(contentsOfFile: velocity, encoding: .utf8) + "\n"
        try edited.write(toFile: velocity, atomically: false, encoding: .utf8)
        server.signal(SIGHUP)
        server.read(until: "configuration changed since start")
        server.read(until: "\"models reloaded\"", occurrences: 2)
        let line = server.line(containing: "configuration changed since start")
        #expect(line.contains("\"level\":\"warning\""), "\(line)")
        // A JSON array (a file name may hold a comma), of absolute paths.
        #expect(line.contains("\"files\":[\"\(velocity)\"]"), "\(line)")
        #expect(!line.contains("rate-limits.json") && !line.contains("default.json"), "\(line)")

        server.signal(SIGTERM)
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0, "\(server.text)")
    }
}
