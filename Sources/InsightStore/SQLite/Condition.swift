#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex with its condition variable. Callers keep their shared state next to it and touch that state
/// only inside `locked`.
final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(cond, nil)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Only inside `locked`.
    func waitLocked() { pthread_cond_wait(cond, mutex) }
    /// Only inside `locked`; returns after `milliseconds` even if not signalled.
    func waitLocked(milliseconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let total = Int(now.tv_nsec) + milliseconds * 1_000_000
        var deadline = timespec(tv_sec: now.tv_sec + total / 1_000_000_000, tv_nsec: total % 1_000_000_000)
        pthread_cond_timedwait(cond, mutex, &deadline)
    }
    /// Only inside `locked`.
    func signalLocked() { pthread_cond_signal(cond) }
    /// Only inside `locked`.
    func broadcastLocked() { pthread_cond_broadcast(cond) }
}
