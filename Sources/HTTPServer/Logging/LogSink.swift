/// Where log lines go; one call per complete line, without the trailing newline.
public protocol LogSink: Sendable {
    func write(line: String)
}
