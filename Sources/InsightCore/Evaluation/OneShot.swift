import DetachedThreads
import Synchronization

/// A value that arrives once, later, from another thread: a write's outcome, an answer only known once the write
/// is done. The service registers a callback and holds its answer without holding a thread; tools and tests `wait`.
///
/// One is made for every evaluation, on an event loop, and usually let go by the store's writer: it holds no
/// separately allocated lock (a pthread mutex and condition, allocated and freed on those two threads, were two
/// trips per evaluation through the other thread's malloc arena). Only `wait` makes a condition, for its caller.
public final class OneShot<Value: Sendable>: Sendable {
    public typealias Callback = @Sendable (Value) -> Void

    private enum State {
        /// Almost always one callback: it needs no array.
        case pending(first: Callback?, more: [Callback])
        /// The callbacks that ran stay until the one-shot goes, and go with it: on the thread that lets go of it
        /// last. For an evaluation that is the event loop that made them (the store hands finished writes back),
        /// not the writer that fulfilled them.
        case fulfilled(Value, ran: (first: Callback?, more: [Callback]))
    }

    private let state: Mutex<State>

    public init() {
        state = Mutex(.pending(first: nil, more: []))
    }

    /// Already fulfilled: for work done synchronously.
    public init(_ value: Value) {
        state = Mutex(.fulfilled(value, ran: (nil, [])))
    }

    /// Fulfils once; later calls are ignored. Callbacks run on the calling thread, after the lock is released.
    public func fulfil(_ value: Value) {
        let callbacks: (first: Callback?, more: [Callback])? = state.withLock { state in
            guard case .pending(let first, let more) = state else { return nil }
            state = .fulfilled(value, ran: (first, more))
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
            case .fulfilled(let value, _):
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
