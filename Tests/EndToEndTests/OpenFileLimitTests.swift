import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The open-file limit against the connection cap, on the real binary (the limit is the process's; a test process
/// must not lower its own under the other tests). Under a soft limit below `maxConnections`, `accept` failed with
/// EMFILE before the cap, the cap's reclaim of idle connections never ran, and a new client waited for the idle
/// timeout, 56 s, with nothing logged (HTTP probe, 6 December).
@Suite("Open-file limit", .serialized)
struct OpenFileLimitTests {
    final class Server {
        let process = Process()
        let port: Int
        let errorLog: String

        /// Starts `serve` through `sh`, so `shellLimits` (`ulimit ...`) apply to it alone.
        init(shellLimits: String, data: String) throws {
            errorLog = data + ".stderr"
            try Self.prepare(process, shellLimits: shellLimits, data: data, errorLog: errorLog)
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            port = try DurabilityTests.Server.listeningPort(output, of: process)
        }

        /// `serve` on `data` through `sh` under `shellLimits`, its standard error to `errorLog` if given.
        static func prepare(_ process: Process, shellLimits: String, data: String, errorLog: String? = nil) throws {
            let binary = try #require(DurabilityTests.binary, "the trust-insights binary is built before the tests")
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c", "\(shellLimits) && exec \"$0\" \"$@\"" + (errorLog.map { " 2>\"\($0)\"" } ?? ""), binary.path,
                "serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", data, "--access-log", "false",
                "--config-dir", LiveService.repositoryRoot + "/config", "--models-dir", LiveService.repositoryRoot + "/models",
            ]
        }

        var log: String { (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "" }

        func stop() {
            process.terminate()
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: errorLog)
        }
    }

    /// Opens `count` keep-alive connections that each send one request and then sit idle.
    static func idleConnections(_ count: Int, port: Int) throws -> [SocketClient] {
        let clients = try (0..<count).map { _ in try SocketClient(port: port) }
        for client in clients { client.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)) }
        Thread.sleep(forTimeInterval: 0.5)
        return clients
    }

    /// A new client's `/healthz`: the seconds until its answer, or nil if none came within 5 s. A connection
    /// accepted before its request arrives is silent, and so the first to be closed for a client accepted after it
    /// (as at the cap): a client closed so tries again, as any client of a pool would.
    static func healthCheckSeconds(port: Int) throws -> Double? {
        let started = Date()
        while Date().timeIntervalSince(started) < 5 {
            let client = try SocketClient(port: port)
            if let answer = try? client.request("GET", "/healthz", headers: [("Connection", "close")]), answer.status == 200 {
                return Date().timeIntervalSince(started)
            }
        }
        return nil
    }

    @Test func aSoftLimitIsRaisedToTheHardOneAndTheCapFittedUnderTheHardOne() throws {
        let data = NSTemporaryDirectory() + "trust-insights-nofile-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try Server(shellLimits: "ulimit -S -n 100 && ulimit -H -n 200", data: data)
        defer { server.stop() }
        let limits = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/limits", encoding: .utf8)
        let openFiles = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }.map(String.init) ?? ""
        #expect(openFiles.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2) == ["200", "200"], "\(openFiles)")
        #expect(server.log.contains(#""event":"open-file limit below maxConnections""#), "\(server.log)")
        #expect(server.log.contains(#""openFileLimit":200"#), "\(server.log)")
        #expect(server.log.contains(#""openFileLimitRaisedFrom":100"#), "\(server.log)")
        // More idle clients than the fitted cap: the cap's reclaim makes room for a new one at once.
        let idle = try Self.idleConnections(220, port: server.port)
        let seconds = try Self.healthCheckSeconds(port: server.port)
        #expect(seconds != nil, "a new client was not answered within 5 s")
        withExtendedLifetime(idle) {}
    }

    /// A hard limit that leaves room for a handful of connections: `serve` started with a cap of 1 and passed for up
    /// (resources probe, 6 December); it now refuses to start and says what limit would do.
    @Test func aLimitLeavingRoomForTooFewConnectionsStopsTheStart() throws {
        let data = NSTemporaryDirectory() + "trust-insights-nofile-low-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: data) }
        let process = Process()
        try Server.prepare(process, shellLimits: "ulimit -S -n 75 && ulimit -H -n 75", data: data)
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(output.contains("the open-file limit (75) leaves room for"), "\(output)")
        #expect(output.contains("fewer than 16: raise the hard open-file limit"), "\(output)")
    }

    /// A limit lowered under the running process (`prlimit`), below the cap: accepting fails with EMFILE, which is
    /// logged, and an idle connection makes room as at the cap.
    @Test func runningOutOfDescriptorsBelowTheCapIsLoggedAndReclaimsAnIdleConnection() throws {
        let data = NSTemporaryDirectory() + "trust-insights-emfile-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try Server(shellLimits: "true", data: data)
        defer { server.stop() }
        // util-linux's prlimit (an essential Debian package): Glibc's prlimit(2) wrapper is a GNU extension that
        // Swift does not import.
        let lower = Process()
        lower.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        lower.arguments = ["--pid", String(server.process.processIdentifier), "--nofile=80:80"]
        try lower.run()
        lower.waitUntilExit()
        try #require(lower.terminationStatus == 0)
        let idle = try Self.idleConnections(100, port: server.port)
        let seconds = try Self.healthCheckSeconds(port: server.port)
        #expect(seconds != nil, "a new client was not answered within 5 s")
        #expect(server.log.contains(#""event":"cannot accept connections: out of file descriptors","reason":"EMFILE""#), "\(server.log)")
        withExtendedLifetime(idle) {}
    }
}
