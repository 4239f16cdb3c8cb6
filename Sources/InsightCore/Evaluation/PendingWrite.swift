#if canImport(Glibc)
import Glibc
#endif

/// A record handed to storage that settles later: an evaluation's answer may leave only once its record is
/// durable. The service holds the answer until then without holding a thread; tools and tests `wait`.
public final class PendingWrite: @unchecked Sendable {
    // `state` is read and written only under `mutex`.
    private enum State {
        case pending([@Sendable (Bool) -> Void])
        case settled(Bool)
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state = State.pending([])

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(cond, nil)
    }

    /// Already settled: for recorders that write synchronously.
    public convenience init(succeeded: Bool) {
        self.init()
        state = .settled(succeeded)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    /// Settles once; later calls are ignored. Callbacks run on the calling thread, after the lock is released.
    public func settle(succeeded: Bool) {
        pthread_mutex_lock(mutex)
        guard case .pending(let waiters) = state else {
            pthread_mutex_unlock(mutex)
            return
        }
        state = .settled(succeeded)
        pthread_cond_broadcast(cond)
        pthread_mutex_unlock(mutex)
        for waiter in waiters { waiter(succeeded) }
    }

    /// Runs `body` once settled: at once on this thread if it already is, else on the settling thread.
    public func whenSettled(_ body: @escaping @Sendable (Bool) -> Void) {
        pthread_mutex_lock(mutex)
        switch state {
        case .settled(let succeeded):
            pthread_mutex_unlock(mutex)
            body(succeeded)
        case .pending(var waiters):
            waiters.append(body)
            state = .pending(waiters)
            pthread_mutex_unlock(mutex)
        }
    }

    /// Blocks until settled; true when the write succeeded.
    public func wait() -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if case .settled(let succeeded) = state { return succeeded }
            pthread_cond_wait(cond, mutex)
        }
    }
}
