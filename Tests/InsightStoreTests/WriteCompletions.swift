import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Completions of group-committed writes: how many succeeded, on which threads they ran, and a wait for a number of
/// them.
final class WriteCompletions: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let succeeded = Atomic<Int>(0)
    private let threads = Mutex<[UInt]>([])
    var count: Int { succeeded.load(ordering: .relaxed) }
    var completingThreads: Set<UInt> { Set(threads.withLock { $0 }) }

    func record(_ outcome: Result<Void, any Error>) {
        if case .success = outcome { succeeded.add(1, ordering: .relaxed) }
        threads.withLock { $0.append(UInt(pthread_self())) }
        done.signal()
    }

    /// True if `count` completions arrived within `seconds`.
    func wait(for count: Int, seconds: Double) -> Bool {
        (0..<count).allSatisfy { _ in done.wait(timeout: .now() + seconds) == .success }
    }
}
