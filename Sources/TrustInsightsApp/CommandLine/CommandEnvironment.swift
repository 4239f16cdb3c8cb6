#if canImport(Glibc)
import Glibc
#endif

/// What a command may touch of the outside world, passed in so commands run the same in tests and for real.
public struct CommandEnvironment: Sendable {
    public var standardOutput: @Sendable (String) -> Void
    public var standardError: @Sendable (String) -> Void
    public var variables: [String: String]
    /// True when standard error is a terminal: progress lines are drawn only then.
    public var isInteractive: Bool

    public init(
        standardOutput: @escaping @Sendable (String) -> Void,
        standardError: @escaping @Sendable (String) -> Void,
        variables: [String: String],
        isInteractive: Bool
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.variables = variables
        self.isInteractive = isInteractive
    }

    /// The process's real streams and environment.
    public static func process(variables: [String: String]) -> CommandEnvironment {
        CommandEnvironment(
            standardOutput: { text in FileDescriptorWriter.write(text, to: 1) },
            standardError: { text in FileDescriptorWriter.write(text, to: 2) },
            variables: variables,
            isInteractive: isatty(2) == 1
        )
    }

    public func print(_ line: String) { standardOutput(line + "\n") }
    public func printError(_ line: String) { standardError(line + "\n") }
}

enum FileDescriptorWriter {
    /// Writes all bytes, retrying on short writes and EINTR, so lines from different threads never interleave.
    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
