import Synchronization

/// Keeps lines in memory, for tests that assert on what was (and was not) logged.
public final class CollectingLogSink: LogSink {
    private let storage = Mutex<[String]>([])

    public init() {}

    public func write(line: String) {
        storage.withLock { $0.append(line) }
    }

    public var lines: [String] { storage.withLock { $0 } }
}
