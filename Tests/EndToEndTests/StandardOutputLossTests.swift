import Foundation
import Testing

/// The real binary with its standard output full or closed, as a shell leaves it: a key whose secret went nowhere
/// must not stay live, and the command must not exit 0.
@Suite("Standard output that cannot be written")
struct StandardOutputLossTests {
    static func shell(_ script: String, _ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "sh"] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test(.enabled(if: DurabilityTests.binary != nil, "the trust-insights binary is not built"),
          arguments: [("a full disk", ">/dev/full", "no space left on device"), ("a closed descriptor", ">&-", "bad file descriptor")])
    func keyCreationRevokesTheKeyItCouldNotShow(_ name: String, _ redirection: String, _ reason: String) throws {
        let binary = try #require(DurabilityTests.binary).path
        let folder = NSTemporaryDirectory() + "stdout-loss-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let created = try Self.shell(
            #""$1" keys create --tenant t --role client --env sandbox --data-dir "$2" "# + redirection, [binary, folder])
        #expect(created.status == 1, "\(name)")
        #expect(created.errors.contains("cannot write standard output (\(reason))"), "\(name): \(created.errors)")
        let list = Process()
        list.executableURL = URL(fileURLWithPath: binary)
        list.arguments = ["keys", "list", "--data-dir", folder]
        let output = Pipe()
        list.standardOutput = output
        try list.run()
        let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        list.waitUntilExit()
        #expect(listed.contains(" revoked ") && !listed.contains(" active "), "\(name): \(listed)")
        // The database was not opened on the closed descriptor: nothing printed went into it.
        #expect(created.errors.contains("Created a new database"), "\(name)")
    }

    @Test(.enabled(if: DurabilityTests.binary != nil, "the trust-insights binary is not built"))
    func helpPrintedIntoAFullDiskFails() throws {
        let binary = try #require(DurabilityTests.binary).path
        let result = try Self.shell(#""$1" --help >/dev/full"#, [binary])
        #expect(result.status == 1)
        #expect(result.errors.contains("Error: cannot write standard output: no space left on device"))
    }
}
