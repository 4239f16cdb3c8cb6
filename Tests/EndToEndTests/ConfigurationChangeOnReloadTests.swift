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
        let process = Process()
        process.executableURL = binary
        // Relative paths, from the folder: the log names the files absolute all the same.
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        process.arguments = ["serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", "data",
                             "--config", "./config/default.json", "--config-dir", "config",
                             "--models-dir", LiveService.repositoryRoot + "/models"]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Bounded: a server that never logs what is awaited is stopped after 60 s, and the expectations below fail.
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { if process.isRunning { process.terminate() } }
        let handle = errors.fileHandleForReading
        var text = ""
        func read(until marker: String, occurrences: Int = 1) {
            while text.components(separatedBy: marker).count - 1 < occurrences {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                text += String(decoding: chunk, as: UTF8.self)
            }
        }
        read(until: "\"listening\"")
        kill(process.processIdentifier, SIGHUP)
        read(until: "\"models reloaded\"")
        // Nothing edited: nothing said.
        #expect(!text.contains("configuration changed since start"), "\(text)")

        // Written in place (same inode, new size and time), as an editor saving over it does.
        let velocity = root + "/config/velocity.json"
        let edited = try String(contentsOfFile: velocity, encoding: .utf8) + "\n"
        try edited.write(toFile: velocity, atomically: false, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        read(until: "configuration changed since start")
        read(until: "\"models reloaded\"", occurrences: 2)
        let line = text.split(separator: "\n").first { $0.contains("configuration changed since start") }.map(String.init) ?? ""
        #expect(line.contains("\"level\":\"warning\""), "\(line)")
        // A JSON array (a file name may hold a comma), of absolute paths.
        #expect(line.contains("\"files\":[\"\(velocity)\"]"), "\(line)")
        #expect(!line.contains("rate-limits.json") && !line.contains("default.json"), "\(line)")

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
    }
}
