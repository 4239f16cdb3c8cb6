#if canImport(Glibc)
import Glibc
#endif

/// A value that arrives once, later, from another thread: a write's outcome, an answer only known once the write
/// is done. The service registers a callback and holds its answer without holding a thread; tools and tests `wait`.
public final class OneShot<Value: Sendable>: @unchecked Sendable {
    // `state` is read and written only under `mutex`.
    private enum State {
        case pending([@Sendable (Value) -> Void])
        case fulfilled(Value)
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state = State.pending([])

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(cond, nil)
    }

    /// Already fulfilled: for work done synchronously.
    public convenience init(_ value: Value) {
        self.init()
        state = .fulfilled(value)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    /// Fulfils once; later calls are ignored. Callbacks run on the calling thread, after the lock is released.
    public func fulfil(_ value: Value) {
        pthread_mutex_lock(mutex)
        guard case .pending(let waiters) = state else {
            pthread_mutex_unlock(mutex)
            return
        }
        state = .fulfilled(value)
        pthread_cond_broadcast(cond)
        pthread_mutex_unlock(mutex)
        for waiter in waiters { waiter(value) }
    }

    /// Runs `body` with the value: at once on this thread if it is there, else on the fulfilling thread.
    public func whenFulfilled(_ body: @escaping @Sendable (Value) -> Void) {
        pthread_mutex_lock(mutex)
        switch state {
        case .fulfilled(let value):
            pthread_mutex_unlock(mutex)
            body(value)
        case .pending(var waiters):
            waiters.append(body)
            state = .pending(waiters)
            pthread_mutex_unlock(mutex)
        }
    }

    /// Blocks until fulfilled.
    public func wait() -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if case .fulfilled(let value) = state { return value }
            pthread_cond_wait(cond, mutex)
        }
    }
}

/// A record handed to storage: true once durable, false if the write failed.
public typealias PendingWrite = OneShot<Bool>
