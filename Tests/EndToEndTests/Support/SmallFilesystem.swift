import Foundation
import Glibc

/// A tmpfs of a few megabytes mounted on a fresh temporary folder: a data disk a test can fill up and free again.
/// Mounting needs root (CI runs as root); where it is refused, the tests that need it are skipped, saying why.
final class SmallFilesystem {
    let path: String
    private var mounted = false

    init(megabytes: Int) throws {
        path = NSTemporaryDirectory() + "trust-insights-fs-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if let failure = Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", path]) {
            try? FileManager.default.removeItem(atPath: path)
            throw SmallFilesystemError.cannotMount(failure)
        }
        mounted = true
    }

    deinit { unmount() }

    func unmount() {
        guard mounted else { return }
        // Lazily, so a file the service still holds open cannot keep the mount (and the test) hanging.
        mounted = Self.run("/bin/umount", ["-l", path]) != nil
        rmdir(path)
    }

    /// Makes the filesystem read-only, as a backup or snapshot mounted read-only is: every write fails with EROFS,
    /// whoever the user (root included). A file this process still has open for writing there makes the remount
    /// fail as busy; the error then names the files still open when it looks (one closing meanwhile is not listed).
    func remountReadOnly() throws {
        guard let failure = Self.run("/bin/mount", ["-o", "remount,ro", path]) else { return }
        throw SmallFilesystemError.cannotRemount(failure, openHere: openFiles())
    }

    /// The files under the mount that this process has open, from /proc/self/fd.
    func openFiles() -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { descriptor in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor),
                  target.hasPrefix(path + "/") else { return nil }
            return target
        }
    }

    /// Writes a filler file until the filesystem refuses another byte; returns its path.
    func fill() throws -> String {
        let filler = path + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw SmallFilesystemError.cannotFill(errno) }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0, count: 65536)
        var failure: Int32 = 0
        for size in [65536, 4096, 512, 1] {
            // A short write means the space ran out part-way: go on with smaller writes until one fails outright.
            while true {
                let written = chunk.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, size) }
                if written < 0 { failure = errno }
                if written <= 0 { break }
            }
        }
        guard failure == ENOSPC else { throw SmallFilesystemError.cannotFill(failure) }
        return filler
    }

    /// Whether this process may mount a tmpfs: tried once, on a throwaway folder.
    static let isAvailable: Bool = {
        guard getuid() == 0, let probe = try? SmallFilesystem(megabytes: 1) else { return false }
        probe.unmount()
        return true
    }()

    /// Runs `tool`; nil when it exits 0, else what went wrong (its status and what it wrote to standard error).
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return "\(tool) did not start: \(error)"
        }
        // Read before waiting: a tool blocked on a full pipe would never exit.
        let written = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus != 0 else { return nil }
        return "\(tool) exited \(process.terminationStatus): " + String(decoding: written, as: UTF8.self)
    }
}

enum SmallFilesystemError: Error {
    case cannotMount(String)
    case cannotRemount(String, openHere: [String])
    case cannotFill(Int32)
}
