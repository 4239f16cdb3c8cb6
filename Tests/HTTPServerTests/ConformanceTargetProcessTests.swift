import Foundation
import Testing

/// Runs the real `http-conformance-target` binary, which `swift test` builds with every other product.
@Suite("Conformance target process", .serialized)
struct ConformanceTargetProcessTests {
    static var binary: URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug"),
        ].map { $0.appendingPathComponent("http-conformance-target") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    struct Running {
        let process: Process
        let port: Int
    }

    /// Starts the binary; with `openFileLimit`, under that RLIMIT_NOFILE (through the shell's ulimit).
    static func launch(openFileLimit: Int? = nil, loops: Int = 2) throws -> Running {
        let binary = try #require(binary, "http-conformance-target is not built; run `swift build` first")
        let process = Process()
        if let openFileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(openFileLimit) && exec \"$0\" --port 0 --loops \(loops)", binary.path]
        } else {
            process.executableURL = binary
            process.arguments = ["--port", "0", "--loops", String(loops)]
        }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var banner = Data()
        let handle = output.fileHandleForReading
        while !banner.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            banner.append(chunk)
        }
        let line = String(decoding: banner, as: UTF8.self)
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(line.hasPrefix("listening on 127.0.0.1:"))
        return Running(process: process, port: port)
    }

    @Test func servesTheConformanceInterface() throws {
        let running = try Self.launch()
        defer {
            running.process.terminate()
            running.process.waitUntilExit()
        }
        let client = try RawClient(port: running.port)
        client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        client.send("HEAD / HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse(bodyless: true)?.status == 200)
        client.send("OPTIONS / HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        client.send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nping")
        #expect(client.readResponse()?.bodyText == "ping")
        client.send("POST /echo HTTP/1.1\r\nHost: a\r\nX-Probe: 1\r\nContent-Length: 0\r\n\r\n")
        #expect(client.readResponse()?.bodyText == "Host: a\nX-Probe: 1\nContent-Length: 0\n")
        // The evaluation benchmark's reference route: 32 numbers decoded by JSONDecoder, their sum encoded back.
        let numbers = "{\"values\":[" + (1...32).map { "\($0).5" }.joined(separator: ",") + "]}"
        client.send("POST /numbers HTTP/1.1\r\nHost: a\r\nContent-Length: \(numbers.utf8.count)\r\n\r\n\(numbers)")
        let summary = try #require(client.readResponse())
        #expect(summary.status == 200)
        #expect(summary.bodyText.contains("\"sum\":544"))
        #expect(summary.bodyText.contains("\"count\":32"))
        client.send("POST /numbers HTTP/1.1\r\nHost: a\r\nContent-Length: 14\r\n\r\n{\"values\":[1]}")
        #expect(client.readResponse()?.status == 400)
    }

    /// CPU seconds the process has used (user + system), from /proc.
    static func cpuSeconds(of pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test func backsOffWhenOutOfFileDescriptorsAndRecovers() throws {
        let running = try Self.launch(openFileLimit: 48, loops: 1)
        defer {
            running.process.terminate()
            running.process.waitUntilExit()
        }
        // More connections than descriptors: accept fails with EMFILE and the rest wait in the backlog.
        var clients: [RawClient] = []
        for _ in 0..<80 { clients.append(try RawClient(port: running.port, receiveTimeoutMilliseconds: 2000)) }
        usleep(300_000)
        let pid = running.process.processIdentifier
        let before = try #require(Self.cpuSeconds(of: pid))
        usleep(1_000_000)
        let after = try #require(Self.cpuSeconds(of: pid))
        // A loop spinning on EMFILE would burn a whole core here.
        #expect(after - before < 0.3)
        // Freeing descriptors lets the waiting connections in, and they are served.
        let last = clients.removeLast()
        clients.removeAll()
        #expect(last.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
        var response: ParsedResponse?
        for _ in 0..<3 where response == nil { response = last.readResponse() }
        #expect(response?.status == 200)
        #expect(running.process.isRunning)
    }

    @Test func drainsAnInFlightRequestAndExitsZeroOnSIGTERM() throws {
        let running = try Self.launch()
        let idle = try RawClient(port: running.port)
        idle.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(idle.readResponse()?.status == 200)
        let busy = try RawClient(port: running.port)
        // The 100 Continue shows the head was read (the request is in flight, not an idle connection that draining
        // closes), and the listener closing shows the drain has begun before the rest of the body comes.
        busy.send("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        #expect(busy.readResponse()?.status == 100)
        busy.send("he")
        kill(running.process.processIdentifier, SIGTERM)
        let drainDeadline = Date().addingTimeInterval(5)
        while (try? RawClient(port: running.port)) != nil && Date() < drainDeadline { usleep(10_000) }
        busy.send("llo")
        let response = try #require(busy.readResponse())
        #expect(response.bodyText == "hello")
        #expect(response.header("Connection") == "close")
        #expect(idle.waitForClose())
        let deadline = Date().addingTimeInterval(5)
        while running.process.isRunning && Date() < deadline { usleep(20_000) }
        #expect(!running.process.isRunning)
        if running.process.isRunning {
            running.process.terminate()
        } else {
            #expect(running.process.terminationReason == .exit)
            #expect(running.process.terminationStatus == 0)
        }
    }
}
