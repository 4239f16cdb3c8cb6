import Foundation

/// Whether `python3` can import `modules` (such as "cbor2, cryptography"): the cross-checks against independent
/// implementations run only where CI installed them, and say they skipped otherwise.
func pythonCanImport(_ modules: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import \(modules)"]
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    } catch {
        return false
    }
}
