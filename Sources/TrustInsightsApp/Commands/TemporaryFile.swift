import CLinux

#if canImport(Glibc)
import Glibc
#endif
import InsightModel

/// The file a replaced output is written to before it is renamed over the old one. Where the file system has
/// O_TMPFILE it has no name until it is complete, so a command killed half-way (SIGKILL included) leaves nothing
/// behind; elsewhere it is `.<name>.XXXXXX` beside the output, removed when the command fails but left by a kill
/// (a pipeline probe found 61 MB of an interrupted `simulate` left that way, 6 December).
struct TemporaryFile {
    private(set) var descriptor: Int32
    private let folder: String
    private let outputName: String
    /// The name it has in `folder`: none yet while unnamed.
    private(set) var path: String?
    private var isOpen = true

    init(besideFile output: String, in folder: String) throws(CommandLineError) {
        self.folder = folder
        self.outputName = OutputFile.name(of: output)
        // Said before the work, not after it: an unnamed file opens whatever the name, and only the rename at the
        // end would find it too long.
        guard outputName.utf8.count <= Int(NAME_MAX) else {
            throw .failure("cannot write \(output): \(FileErrorText.reason(code: ENAMETOOLONG))")
        }
        // Naming an unnamed file goes through /proc/self/fd (AT_EMPTY_PATH needs a privilege): without /proc it
        // could be written but never named.
        if access("/proc/self/fd", X_OK) == 0 {
            let unnamed = clinux_open_unnamed_file(folder, 0o600)
            if unnamed >= 0 {
                descriptor = unnamed
                path = nil
                return
            }
        }
        var template = Array((folder + "/" + Self.hiddenName(for: outputName) + "XXXXXX").utf8CString)
        let named = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard named >= 0 else { throw Self.failure(output) }
        descriptor = named
        path = String(cString: template.map { UInt8(bitPattern: $0) })
    }

    /// Gives a complete unnamed file a hidden name beside the output, for the rename that puts it in place.
    mutating func name() throws(CommandLineError) {
        guard path == nil else { return }
        var generator = SystemRandomNumberGenerator()
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        for _ in 0..<100 {
            let suffix = String((0..<6).map { _ in letters[Int(generator.next(upperBound: UInt64(letters.count)))] })
            let candidate = folder + "/" + Self.hiddenName(for: outputName) + suffix
            if clinux_name_unnamed_file(descriptor, candidate) == 0 {
                path = candidate
                return
            }
            guard errno == EEXIST else { return try copyToNamedFile() }
        }
        throw Self.failure(folder + "/" + outputName)
    }

    /// `.<name>.` where that leaves room for six more characters within NAME_MAX, else a fixed prefix: an output
    /// named with 248 to 255 bytes could not be written at all (regression probe, 6 December).
    private static func hiddenName(for name: String) -> String {
        let hidden = "." + name + "."
        return hidden.utf8.count + 6 <= Int(NAME_MAX) ? hidden : ".trust-insights-output."
    }

    /// Where the unnamed file cannot be given a name (a /proc that does not allow it), its bytes go to a named
    /// temporary file instead, so the work is not lost at the last step.
    private mutating func copyToNamedFile() throws(CommandLineError) {
        let reason = errno
        var template = Array((folder + "/" + Self.hiddenName(for: outputName) + "XXXXXX").utf8CString)
        let named = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard named >= 0 else {
            errno = reason
            throw Self.failure(folder + "/" + outputName)
        }
        let namedPath = String(cString: template.map { UInt8(bitPattern: $0) })
        var mode = stat()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        var failed = fstat(descriptor, &mode) != 0
        while !failed {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                failed = count < 0
                break
            }
            do {
                try OutputFile.writeAll(Array(buffer[..<count]), to: named, path: folder + "/" + outputName)
            } catch {
                failed = true
                break
            }
            offset += off_t(count)
        }
        if failed || fchmod(named, mode.st_mode & 0o7777) != 0 || fsync(named) != 0 {
            let error = Self.failure(folder + "/" + outputName)
            close(named)
            unlink(namedPath)
            throw error
        }
        close(descriptor)
        descriptor = named
        path = namedPath
    }

    /// Closes the file; its name, or nil when close reported a failed write.
    mutating func closing() -> String? {
        isOpen = false
        return close(descriptor) == 0 ? path : nil
    }

    /// Closes the file if it is open and removes its name if it has one.
    mutating func discard() {
        if isOpen {
            close(descriptor)
            isOpen = false
        }
        if let path { unlink(path) }
        path = nil
    }

    private static func failure(_ path: String) -> CommandLineError {
        .failure("cannot write \(path): \(FileErrorText.reason(code: errno))")
    }
}
