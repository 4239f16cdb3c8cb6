import Foundation
import Testing

/// `serve`'s standard output only informs (the listening line, the first start's demo keys): when it cannot be
/// written the log says so at once, on standard error, and a clean stop on SIGTERM still exits 0. Before, the
/// service ran and drained normally and then exited 1 ("cannot write standard output"), so a supervisor recorded
/// every ordinary stop as a failure.
@Suite struct ServeStandardOutputTests {
    @Test func anUnwritableStandardOutputIsWarnedAboutAndACleanStopExitsZero() throws {
        let binary = try #require(DurabilityTests.binary, "trust-insights is not built; run `swift build` first")
        let data = NSTemporaryDirectory() + "trust-insights-stdout-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: data) }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--host", "127.0.0.1", "--data-dir", data,
                             "--config-dir", LiveService.repositoryRoot + "/config", "--models-dir", LiveService.repositoryRoot + "/models"]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Bounded: a server that never logs the warning is stopped after 30 s, and the expectations below fail.
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { if process.isRunning { process.terminate() } }
        var text = ""
        let handle = errors.fileHandleForReading
        while !text.contains("standard output not writable") {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        #expect(text.contains("\"standard output not writable\""), "\(text)")
        // A first start says the demo keys were not shown, and does not store them (FirstStartExampleTests).
        #expect(text.contains("\"demo key secrets not shown\""), "\(text)")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        text += String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(!text.contains("Error: cannot write standard output"), "\(text)")
    }
}
