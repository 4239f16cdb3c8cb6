import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A second SIGTERM or SIGINT during a drain does not hurry it: the process says so, with when the drain ends, and
/// stops as the first signal planned (operations probe, 7 December: two identical `draining` lines, nothing else).
@Suite struct SecondStopSignalTests {
    @Test func aSecondStopSignalSaysWhenTheDrainEnds() throws {
        let binary = try #require(DurabilityTests.binary, "trust-insights is not built; run `swift build` first")
        let root = NSTemporaryDirectory() + "trust-insights-second-signal-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", root + "/data",
                             "--config-dir", LiveService.repositoryRoot + "/config",
                             "--models-dir", LiveService.repositoryRoot + "/models"]
        process.environment = ["TRUST_INSIGHTS_SHUTDOWN_GRACE_SECONDS": "2"]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { if process.isRunning { process.terminate() } }
        let handle = errors.fileHandleForReading
        var text = ""
        func read(until marker: String) {
            while !text.contains(marker) {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                text += String(decoding: chunk, as: UTF8.self)
            }
        }
        read(until: "\"listening\"")
        let listening = String(text.split(separator: "\n").first { $0.contains("\"listening\"") } ?? "")
        let afterAddress = listening.components(separatedBy: "\"address\":\"127.0.0.1:").dropFirst().first ?? ""
        let port = try #require(Int(String(afterAddress.prefix { $0.isNumber })), "\(listening)")
        // A request begun and not finished keeps the drain going for its grace period.
        let client = try SocketClient(port: port)
        client.send(Array("GET /healthz HTTP/1.1\r\nHost: a\r\n".utf8))
        Thread.sleep(forTimeInterval: 0.2)
        kill(process.processIdentifier, SIGTERM)
        read(until: "\"draining\"")
        kill(process.processIdentifier, SIGINT)
        read(until: "\"already draining\"")
        process.waitUntilExit()
        read(until: "\"stopped")
        let second = text.split(separator: "\n").first { $0.contains("\"already draining\"") }.map(String.init) ?? ""
        #expect(second.contains("\"signal\":\"SIGINT\"") && second.contains("\"drainEndsBy\":\""), "\(text)")
        #expect(text.components(separatedBy: "\"action\":\"draining\"").count == 2, "one drain: \(text)")
        #expect(process.terminationStatus == 1, "the unfinished request was cut off at the grace period's end: \(text)")
        _ = client
    }
}
