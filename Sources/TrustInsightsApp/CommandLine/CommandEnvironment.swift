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
    /// Why writing standard output failed, if it has: a command's printed result that went nowhere is a failure.
    public var standardOutputFault: @Sendable () -> String?

    public init(
        standardOutput: @escaping @Sendable (String) -> Void,
        standardError: @escaping @Sendable (String) -> Void,
        variables: [String: String],
        isInteractive: Bool,
        standardOutputFault: @escaping @Sendable () -> String? = { nil }
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.variables = variables
        self.isInteractive = isInteractive
        self.standardOutputFault = standardOutputFault
    }

    /// The process's real streams and environment. `closedStreams` comes from `ClosedStandardStreams.reserve()`,
    /// called before anything opened a file.
    public static func process(
        variables: [String: String], closedStreams: ClosedStandardStreams = .allOpen
    ) -> CommandEnvironment {
        let fault = StandardOutputFault()
        let outputClosed = closedStreams.standardOutputWasClosed
        return CommandEnvironment(
            standardOutput: { text in
                // Descriptor 1 is /dev/null standing in for the closed stream: nothing printed reaches anyone.
                if outputClosed { return fault.record(errorNumber: EBADF) }
                if let failure = FileDescriptorWriter.write(text, to: 1) { fault.record(errorNumber: failure) }
            },
            standardError: { text in FileDescriptorWriter.write(text, to: 2) },
            variables: variables,
            isInteractive: isatty(2) == 1,
            standardOutputFault: { fault.description }
        )
    }

    public func print(_ line: String) { standardOutput(line + "\n") }
    /// Control characters other than tabs are written as `\u{1B}`, line breaks of every kind too (`\u{A}`): a
    /// message quotes names from files and arguments (a configuration key, a CSV header, a manifest's path), and a
    /// terminal would act on an escape sequence or a NUL in them (command-line probe, 6 December), and a line break
    /// would start a line of any content, such as a forged JSON log line on the stream `serve` logs to
    /// (regression probe, 6 December). One call is one line.
    public func printError(_ line: String) {
        standardError(Self.escapingControlCharacters(line, lineBreaksToo: true) + "\n")
    }

    static func escapingControlCharacters(_ text: String, lineBreaksToo: Bool = false) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.value < 0x20 && ((scalar != "\n" || lineBreaksToo) && scalar != "\t")) || (0x7F...0x9F).contains(scalar.value)
                || (lineBreaksToo && (scalar.value == 0x2028 || scalar.value == 0x2029))
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                escaped.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}

enum FileDescriptorWriter {
    /// Writes all bytes, retrying on short writes and EINTR, so lines from different threads never interleave.
    /// Returns the error number of a write that failed, nil when every byte was written.
    @discardableResult
    static func write(_ text: String, to fd: Int32) -> Int32? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
}
