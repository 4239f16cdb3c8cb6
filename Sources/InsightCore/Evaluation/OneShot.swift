import DetachedThreads
import Synchronization

/// A value that arrives once, later, from another thread: a write's outcome, an answer only known once the write
/// is done. The service registers a callback and holds its answer without holding a thread; tools and tests `wait`.
///
/// One is made for every evaluation: it holds its lock and its first callback inline, and only `wait` makes a
/// condition, for its caller (a pthread mutex, a condition and an array for the one callback were three more
/// allocations per evaluation).
public final class OneShot<Value: Sendable>: Sendable {
    public typealias Callback = @Sendable (Value) -> Void

    private enum State {
        /// Almost always one callback: it needs no array.
        case pending(first: Callback?, more: [Callback])
        case fulfilled(Value)
    }

    private let state: Mutex<State>

    public init() {
        state = Mutex(.pending(first: nil, more: []))
    }

    /// Already fulfilled: for work done synchronously.
    public init(_ value: Value) {
        state = Mutex(.fulfilled(value))
    }

    /// Fulfils once; later calls are ignored. Callbacks run on the calling thread, after the lock is released.
    public func fulfil(_ value: Value) {
        let callbacks: (first: Callback?, more: [Callback])? = state.withLock { state in
            guard case .pending(let first, let more) = state else { return nil }
            state = .fulfilled(value)
            return (first, more)
        }
        guard let callbacks else { return }
        callbacks.first?(value)
        for callback in callbacks.more { callback(value) }
    }

    /// Runs `body` with the value: at once on this thread if it is there, else on the fulfilling thread.
    public func whenFulfilled(_ body: @escaping Callback) {
        let value: Value? = state.withLock { state in
            switch state {
            case .fulfilled(let value):
                return value
            case .pending(nil, let more):
                state = .pending(first: body, more: more)
                return nil
            case .pending(let first, var more):
                // Out of the lock's state first, so the array is not copied to grow.
                state = .pending(first: first, more: [])
                more.append(body)
                state = .pending(first: first, more: more)
                return nil
            }
        }
        if let value { body(value) }
    }

    /// Blocks until fulfilled.
    public func wait() -> Value {
        let latch = Latch()
        whenFulfilled { latch.set($0) }
        return latch.wait()
    }

    private final class Latch: @unchecked Sendable {
        // `value` is touched only inside `condition.locked`.
        private let condition = Condition()
        private var value: Value?

        func set(_ value: Value) {
            condition.locked {
                self.value = value
                condition.broadcastLocked()
            }
        }

        func wait() -> Value {
            condition.locked {
                while true {
                    if let value { return value }
                    condition.waitLocked()
                }
            }
        }
    }
}

/// A record handed to storage: true once durable, false if the write failed.
public typealias PendingWrite = OneShot<Bool>
