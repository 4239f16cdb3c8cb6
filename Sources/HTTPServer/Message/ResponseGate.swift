import Synchronization

/// Holds a response back until something outside the server settles, without holding the event loop's thread:
/// an evaluation's answer, for one, may leave only once its record is durable. Opened, the response goes out as
/// it is; replaced, the replacement goes out instead. Later requests on the same connection wait their turn, so
/// answers stay in order.
public final class ResponseGate: Sendable {
    enum Settlement: Sendable {
        case open
        case replaced(HTTPResponse)
    }

    private enum State {
        case pending(waiter: (@Sendable (ResponseGate) -> Void)?)
        case settled(Settlement)
    }

    private let state = Mutex(State.pending(waiter: nil))

    public init() {}

    /// The held response may go out.
    public func open() { settle(.open) }

    /// `response` goes out instead of the held one (an error, or an answer only known once the write is done).
    public func replace(with response: HTTPResponse) { settle(.replaced(response)) }

    private func settle(_ settlement: Settlement) {
        let waiter: (@Sendable (ResponseGate) -> Void)? = state.withLock { state in
            guard case .pending(let waiter) = state else { return nil }
            state = .settled(settlement)
            return waiter
        }
        waiter?(self)
    }

    var settlement: Settlement? {
        state.withLock { state in
            if case .settled(let settlement) = state { return settlement }
            return nil
        }
    }

    /// Registers the one callback the event loop needs; false when already settled (no callback will come).
    func notify(_ waiter: @escaping @Sendable (ResponseGate) -> Void) -> Bool {
        state.withLock { state in
            guard case .pending = state else { return false }
            state = .pending(waiter: waiter)
            return true
        }
    }
}
