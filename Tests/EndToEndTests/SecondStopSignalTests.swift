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
        let server = try ServeProcess(binary, arguments: [
            "--port", "0", "--host", "127.0.0.1", "--data-dir", root + "/data",
            "--config-dir", LiveService.repositoryRoot + "/config", "--models-dir", LiveService.repositoryRoot + "/models",
        ], environment: ["TRUST_INSIGHTS_SHUTDOWN_GRACE_SECONDS": "2"])
        server.read(until: "\"listening\"")
        let listening = server.line(containing: "\"listening\"")
        let afterAddress = listening.components(separatedBy: "\"address\":\"127.0.0.1:").dropFirst().first ?? ""
        let port = try #require(Int(String(afterAddress.prefix { $0.isNumber })), "\(listening)")
        // A request begun and not finished keeps the drain going for its grace period.
        let client = try SocketClient(port: port)
        client.send(Array("GET /healthz HTTP/1.1\r\nHost: a\r\n".utf8))
        Thread.sleep(forTimeInterval: 0.2)
        server.signal(SIGTERM)
        server.read(until: "\"draining\"")
        server.signal(SIGINT)
        server.read(until: "\"already draining\"")
        server.process.waitUntilExit()
        server.read(until: "\"stopped")
        let second = server.line(containing: "\"already draining\"")
        #expect(second.contains("\"signal\":\"SIGINT\"") && second.contains("\"drainEndsBy\":\""), "\(server.text)")
        #expect(server.text.components(separatedBy: "\"action\":\"draining\"").count == 2, "one drain: \(server.text)")
        #expect(server.process.terminationStatus == 1, "the unfinished request was cut off at the grace period's end: \(server.text)")
        _ = client
    }
}
