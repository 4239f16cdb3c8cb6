import Foundation

/// Helpers shared by the tests: temporary directories and running external tools (openssl, python3).
enum TestSupport {
    static var packageRoot: URL {
        // Tests/InsightCryptoTests/Support/TestSupport.swift: four levels below the package root.
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("insight-crypto-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    struct ProcessResult {
        let status: Int32
        let output: String
        let errorOutput: String
    }

    /// Runs an executable found on PATH with a bounded wait; nil if the tool is absent.
    static func run(_ tool: String, _ arguments: [String], input: Data? = nil) throws -> ProcessResult? {
        guard let executable = which(tool) else { return nil }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus,
            output: String(decoding: outputData, as: UTF8.self),
            errorOutput: String(decoding: errorData, as: UTF8.self))
    }

    static func which(_ tool: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(tool)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    static let hasOpenSSL: Bool = which("openssl") != nil

    /// python3 with cbor2 and cryptography importable (CI installs cbor2 with pip).
    static let hasPythonCOSEModules: Bool = {
        guard let result = try? run("python3", ["-c", "import cbor2, cryptography"]) else { return false }
        return result.status == 0
    }()

    static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = hex.filter { !$0.isWhitespace }.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(UInt8(String([high, low]), radix: 16)!)
        }
        return bytes
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
    }
}
