import Synchronization

/// What the store's last failed write was told, kept for the log line that says writes stopped: the write's caller
/// only learns that storage failed, and the operator needs the cause (a lock another process holds, a full disk).
final class LastWriteFailure: Sendable {
    private let text = Mutex<String?>(nil)

    func note(_ error: any Error) { note("\(error)") }

    func note(_ reason: String) { text.withLock { $0 = reason } }

    var reason: String? { text.withLock { $0 } }
}
