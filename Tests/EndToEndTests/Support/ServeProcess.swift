import Foundation

/// `trust-insights serve` as its own process, its log (standard error) read as it comes: for what only a real process
/// shows (signals, the start's and the stop's lines). Stopped after 60 s whatever happens, so a server that never logs
/// what a test awaits cannot hang the suite; the test's expectations then fail.
final class ServeProcess {
    let process = Process()
    private let log: FileHandle
    /// Everything the process has logged so far.
    private(set) var text = ""

    init(_ binary: URL, arguments: [String], environment: [String: String]? = nil, in folder: String? = nil) throws {
        process.executableURL = binary
        process.arguments = ["serve"] + arguments
        if let environment { process.environment = environment }
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let errors = Pipe()
        process.standardError = errors
        log = errors.fileHandleForReading
        try process.run()
        let process = self.process
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { if process.isRunning { process.terminate() } }
    }

    /// Reads the log until `marker` has appeared `occurrences` times, or the log ends.
    func read(until marker: String, occurrences: Int = 1) {
        while text.components(separatedBy: marker).count - 1 < occurrences {
            let chunk = log.availableData
            if chunk.isEmpty { return }
            text += String(decoding: chunk, as: UTF8.self)
        }
    }

    /// The first log line holding `marker`, or "".
    func line(containing marker: String) -> String {
        text.split(separator: "\n").first { $0.contains(marker) }.map(String.init) ?? ""
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }
}
