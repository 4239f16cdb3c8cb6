import Foundation

extension Process {
    /// Runs the process to its end with standard output and error in one pipe, and returns what it wrote.
    func runCollectingOutput() throws -> String {
        let output = Pipe()
        standardOutput = output
        standardError = output
        try run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        waitUntilExit()
        return text
    }
}
