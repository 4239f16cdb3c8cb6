#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex with its condition variable. Callers keep their shared state next to it and touch that state
/// only inside `locked`.
///
/// Timed waits run on CLOCK_MONOTONIC, so setting the wall clock neither stretches nor cuts them short.
public final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    public func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// The monotonic clock `microseconds` from now, for `waitLocked(until:)`.
    public static func deadline(microsecondsFromNow microseconds: Int) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return adding(microseconds: microseconds, to: now)
    }

    public static func adding(microseconds: Int, to time: timespec) -> timespec {
        let total = Int(time.tv_nsec) + microseconds * 1000
        return timespec(tv_sec: time.tv_sec + total / 1_000_000_000, tv_nsec: total % 1_000_000_000)
    }

    /// Only inside `locked`.
    public func waitLocked() { pthread_cond_wait(cond, mutex) }
    /// Only inside `locked`; returns after `milliseconds` even if not signalled.
    public func waitLocked(milliseconds: Int) {
        var deadline = Self.deadline(microsecondsFromNow: milliseconds * 1000)
        pthread_cond_timedwait(cond, mutex, &deadline)
    }
    /// Only inside `locked`; false once `deadline` has passed (true may also be a spurious wake-up).
    public func waitLocked(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(cond, mutex, &deadline) != ETIMEDOUT
    }
    /// Only inside `locked`.
    public func signalLocked() { pthread_cond_signal(cond) }
    /// Only inside `locked`.
    public func broadcastLocked() { pthread_cond_broadcast(cond) }
}
