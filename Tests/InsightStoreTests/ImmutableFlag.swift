import Foundation

/// `chattr +i` and `-i`: the suites run as root, whom file modes do not stop, and an immutable file stops root too.
/// False where the file system or the container does not allow it; the tests that need it then say so and check
/// nothing.
enum ImmutableFlag {
    static func set(_ path: String, _ on: Bool) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [on ? "+i" : "-i", path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
