import Foundation
import Glibc
import Testing

/// A relative path whose `..` comes after a symbolic link names what the system reaches (`linked/../models` is the
/// link target's parent's `models`), not what folding the text gives (the working folder's `models`). The real
/// binary in a working folder of its own, as an operator's shell runs it, with a decoy where the folded text points.
@Suite("Relative paths through a linked folder")
struct RelativePathThroughLinkTests {
    static func shell(_ script: String, in folder: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let text = try process.runCollectingOutput()
        return (process.terminationStatus, text)
    }

    @Test(.enabled(if: DurabilityTests.binary != nil, "the trust-insights binary is not built"))
    func modelsListAndVerifyReadWhatTheSystemReaches() throws {
        let binary = try #require(DurabilityTests.binary).path
        let root = NSTemporaryDirectory() + "relative-link-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = FileManager.default
        try files.createDirectory(atPath: root + "/real/sub", withIntermediateDirectories: true)
        try files.createDirectory(atPath: root + "/work/models", withIntermediateDirectories: true)
        try files.createDirectory(atPath: root + "/work/config/features", withIntermediateDirectories: true)
        try files.copyItem(atPath: LiveService.repositoryRoot + "/models", toPath: root + "/real/models")
        try files.copyItem(atPath: LiveService.repositoryRoot + "/config", toPath: root + "/real/config")
        try files.createSymbolicLink(atPath: root + "/work/linked", withDestinationPath: root + "/real/sub")
        // Decoys where the folded text points: were they read, the commands would fail.
        try Data("{".utf8).write(to: URL(fileURLWithPath: root + "/work/models/manifest.json"))
        for category in ["payment", "account", "resourceUse", "communication", "other"] {
            try Data("{".utf8).write(to: URL(fileURLWithPath: root + "/work/config/features/\(category).json"))
        }

        let list = try Self.shell(#"'\#(binary)' models list --manifest linked/../models/manifest.json"#, in: root + "/work")
        #expect(list.status == 0, "\(list.output)")
        #expect(list.output.contains("payment-2026.11.1.json") && !list.output.contains("(unreadable)"), "\(list.output)")

        let verify = try Self.shell(
            #"'\#(binary)' models verify --manifest linked/../models/manifest.json --catalogue linked/../config/features"#, in: root + "/work")
        #expect(verify.status == 0, "\(verify.output)")
        #expect(verify.output.contains("ok  isLikelyBeingCoached/payment"), "\(verify.output)")

        // A model the manifest lists but that is not there is refused naming where it was looked for.
        try files.createDirectory(atPath: root + "/real/missing", withIntermediateDirectories: true)
        try Data(#"{"formatVersion": 1, "models": [{"insightType": "isLikelyBeingCoached", "category": "payment", "version": "1", "status": "current", "path": "gone.json"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: root + "/real/missing/manifest.json"))
        let missing = try Self.shell(
            #"'\#(binary)' models verify --manifest linked/../missing/manifest.json --catalogue linked/../config/features"#, in: root + "/work")
        #expect(missing.status == 1)

        // serve reads the same folders, and its `listening` line says where they are on disk.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments = [
            "serve", "--port", "0", "--config", "linked/../config/default.json", "--config-dir", "linked/../config",
            "--models-dir", "linked/../models", "--data-dir", "linked/../data",
        ]
        server.currentDirectoryURL = URL(fileURLWithPath: root + "/work")
        let log = Pipe()
        server.standardOutput = log
        server.standardError = log
        try server.run()
        defer { if server.isRunning { server.terminate(); server.waitUntilExit() } }
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("\"event\":\"listening\""), Date() < deadline, server.isRunning {
            let chunk = log.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let listening = try #require(text.split(separator: "\n").first { $0.contains("\"event\":\"listening\"") }, "\(text)")
        for (name, folder) in [("dataDir", "data"), ("modelsDir", "models"), ("configDir", "config")] {
            let real = try #require(realpath(root + "/real/" + folder, nil))
            defer { free(real) }
            #expect(listening.contains("\"\(name)OnDisk\":\"\(String(cString: real))\""), "\(listening)")
        }
        #expect(FileManager.default.fileExists(atPath: root + "/real/data/trust-insights.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: root + "/work/data"))
        #expect(missing.output.contains("refused  gone.json: cannot read the model: no such file or directory (looked for \(root)/work/linked/../missing/gone.json)"), "\(missing.output)")
    }
}
