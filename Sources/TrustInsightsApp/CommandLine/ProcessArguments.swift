#if canImport(Glibc)
import Glibc
#endif

/// The process's arguments after its name. The Swift runtime on Linux takes argv from what glibc hands the
/// program's constructors, and with some preloaded libraries (libfaketime, which operators use to try a staged key's
/// switch or a compliance window ahead of time) it is handed none: every command then said `Missing subcommand`
/// (signed-payload probe, 6 December). The kernel's copy in /proc/self/cmdline is read instead when the runtime's is
/// empty; a process started with no argv at all reads an empty list there too.
public enum ProcessArguments {
    public static func afterName(runtime: [String]) -> [String] {
        guard runtime.isEmpty else { return Array(runtime.dropFirst()) }
        return Array(kernelCopy().dropFirst())
    }

    private static func kernelCopy() -> [String] {
        let descriptor = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        // Each argument ends with a NUL; an empty argument is an empty run between two.
        if bytes.last == 0 { bytes.removeLast() }
        guard !bytes.isEmpty else { return [] }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
}
