import DetachedThreads
import Glibc

/// Delivers SIGTERM, SIGINT and SIGHUP to a callback on a dedicated thread.
///
/// Create it before any other thread starts: `init` blocks the signals in the calling thread, and threads
/// started afterwards inherit the mask, so the signals stay pending until the waiter's `sigwait` takes them.
/// Nothing runs in async-signal context. SIGPIPE is ignored (writes also use MSG_NOSIGNAL where they can).
public struct SignalWaiter: Sendable {
    public let signals: [Int32]

    public init(signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]) {
        self.signals = signals
        signal(SIGPIPE, SIG_IGN)
        var set = Self.makeSet(signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the waiting thread; `handler` runs on it once per signal received, for as long as the process lives.
    public func start(_ handler: @escaping @Sendable (Int32) -> Void) {
        let signals = signals
        DetachedThread.spawn(name: "signal-waiter") {
            var set = Self.makeSet(signals)
            while true {
                var received: Int32 = 0
                if sigwait(&set, &received) == 0 {
                    handler(received)
                }
            }
        }
    }

    private static func makeSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        return set
    }
}
