/// The timers of one connection as a pure state machine over a clock the caller passes in (monotonic
/// nanoseconds), so tests can drive it without sleeping.
struct ConnectionDeadlines: Equatable {
    enum Expiry: Equatable {
        /// The request did not arrive in full in time: answer 408 and close.
        case request
        /// A keep-alive connection sat unused: close quietly.
        case idle
        /// A response did not drain to the client in time: close.
        case write
        /// The lingering close after an error is over: close.
        case linger
    }

    struct Timeouts: Equatable {
        var request: UInt64
        var idle: UInt64
        var write: UInt64
        var linger: UInt64
    }

    let timeouts: Timeouts
    private(set) var request: UInt64?
    private(set) var idle: UInt64?
    private(set) var write: UInt64?
    private(set) var linger: UInt64?

    /// A connection that has not sent its first byte gets the shorter of the request and idle timeouts: a slot
    /// held by a client that says nothing is what a flood of silent connections uses to lock everyone out (with
    /// the idle timeout alone, 60 s a slot). It closes quietly, as an idle one does: a browser's preconnect that
    /// went unused is not an error.
    init(timeouts: Timeouts, openedAt now: UInt64) {
        self.timeouts = timeouts
        self.idle = now &+ min(timeouts.idle, timeouts.request)
    }

    /// The first byte of a request arrived. Later bytes do not move this deadline: that is what stops slowloris.
    mutating func requestStarted(at now: UInt64) {
        if request == nil { request = now &+ timeouts.request }
        idle = nil
    }

    mutating func requestCompleted() {
        request = nil
    }

    /// What arrived on an idle connection began no request (empty lines before a request line): it is idle still,
    /// until `idleDeadline`, the deadline it had before (or a fresh one, if it had none).
    mutating func inputIgnored(idleDeadline: UInt64?, at now: UInt64) {
        guard write == nil, linger == nil else { return }
        request = nil
        idle = idleDeadline ?? now &+ timeouts.idle
    }

    /// Between requests with nothing left to write.
    mutating func becameIdle(at now: UInt64) {
        guard request == nil, write == nil, linger == nil else { return }
        if idle == nil { idle = now &+ timeouts.idle }
    }

    /// An idle connection's deadline moved up to `deadline` at the latest (the server is draining).
    mutating func idleEnds(by deadline: UInt64) {
        if let idle { self.idle = min(idle, deadline) }
    }

    /// The socket refused part of a response. The deadline covers the whole drain, not each partial write.
    mutating func writeBlocked(at now: UInt64) {
        if write == nil { write = now &+ timeouts.write }
    }

    mutating func writeDrained() {
        write = nil
    }

    mutating func lingerStarted(at now: UInt64) {
        request = nil
        idle = nil
        write = nil
        linger = now &+ timeouts.linger
    }

    func expiry(at now: UInt64) -> Expiry? {
        if let write, now >= write { return .write }
        if let linger, now >= linger { return .linger }
        if let request, now >= request { return .request }
        if let idle, now >= idle { return .idle }
        return nil
    }

    var nextDeadline: UInt64? {
        [request, idle, write, linger].compactMap { $0 }.min()
    }
}
