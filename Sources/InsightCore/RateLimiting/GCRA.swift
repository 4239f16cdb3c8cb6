/// A rate with a burst above it: `burst` requests may arrive at once, then one every `1 / ratePerSecond` seconds.
public struct RateLimit: Sendable, Equatable, Codable {
    public var ratePerSecond: Double
    public var burst: Int

    public init(ratePerSecond: Double, burst: Int) {
        self.ratePerSecond = ratePerSecond
        self.burst = burst
    }

    /// Microseconds between two requests at the sustained rate.
    var emissionInterval: Int64 { max(1, Int64((1_000_000 / ratePerSecond).rounded(.up))) }
    /// How far ahead of schedule a caller may run: the burst, less the request being admitted.
    var tolerance: Int64 { emissionInterval * Int64(max(0, burst - 1)) }
    /// Seconds for an emptied allowance to refill: the window of the `RateLimit-Policy` field.
    public var windowSeconds: Int { max(1, Int((Double(burst) / ratePerSecond).rounded(.up))) }

    /// The same limit with its rate scaled (compliance cuts), never below one request per hour, nor above the rate
    /// it cuts: a tenant may be allowed less than one an hour to begin with.
    public func scaled(by factor: Double) -> RateLimit {
        RateLimit(
            ratePerSecond: min(ratePerSecond, max(1.0 / 3600, ratePerSecond * factor)),
            burst: max(1, Int((Double(burst) * factor).rounded(.down))))
    }
}

/// What one admission check decided, with what the RateLimit fields report.
public struct RateLimitDecision: Sendable, Equatable {
    public var allowed: Bool
    public var limit: RateLimit
    /// Requests that could still be made at once.
    public var remaining: Int
    /// Seconds until the full burst is available again.
    public var resetSeconds: Int
    /// Seconds until one more request would be admitted (0 when allowed).
    public var retryAfterSeconds: Int
}

/// The generic cell rate algorithm: one theoretical arrival time per limited thing, so a limit costs 16 bytes of
/// state (with the reach below) and O(1) per request, with no timers and no buckets to refill.
public struct GCRAState: Sendable, Equatable {
    /// Theoretical arrival time of the next request, in microseconds.
    public private(set) var theoreticalArrival: Int64 = 0
    /// How far ahead of the clock the last admission could have left the arrival time: the burst and one interval
    /// of the limit it was admitted under. A limit changed since (a compliance cut, or its lifting) is judged
    /// against the largest of this, its own and the uncut limit's reach, so that only a clock stepped back
    /// re-anchors the state, not a cut.
    private var reach: Int64 = 0

    public init() {}

    /// Admits a request at `now` (microseconds) if the limit allows it; a refused request changes nothing.
    /// `uncut` is the limit that `limit` cuts, when it does: its reach counts toward telling a clock step too.
    public mutating func admit(now: Int64, limit: RateLimit, uncut: RateLimit? = nil) -> RateLimitDecision {
        let interval = limit.emissionInterval
        let tolerance = limit.tolerance
        // No admission leaves the arrival time further ahead than the burst and one interval of its limit. Further
        // ahead, the wall clock was stepped back (NTP, a restored snapshot): the state is re-anchored so that this
        // request empties the allowance at the new time, and the next waits one interval, not the step's length
        // (a one-hour step had refused the key for an hour). Re-anchored to an emptied allowance instead, the
        // request that found a step was refused: after a step of a few seconds every tenant's first evaluation
        // answered rateLimitError on each insight (time probe, 6 December). A limit cut since is no step: judged
        // by the cut limit's shorter reach, a key that had emptied a long burst was re-anchored and admitted at
        // once, and found most of that burst again when the cut lifted, so not reporting consumption earned
        // requests (consumption probe, 6 December). The cut's tolerance is never above the limit it cuts, nor its
        // interval below, so under the same arrival time a cut admits nothing the uncut limit would refuse. The
        // uncut limit's reach counts as well, so that a clock set back under a cut re-anchors only where it would
        // re-anchor the uncut limit: a state left idle and then admitted under the cut had only the cut's reach, and
        // a step back of less than the uncut reach admitted a request the uncut limit refused (regression probe).
        let window = tolerance + interval
        let stepReach = max(reach, window, uncut.map { $0.tolerance + $0.emissionInterval } ?? 0)
        if theoreticalArrival > now + stepReach { theoreticalArrival = now + tolerance }
        let arrival = max(theoreticalArrival, now)
        if arrival - now > tolerance {
            let wait = arrival - tolerance - now
            return RateLimitDecision(
                allowed: false, limit: limit, remaining: 0, resetSeconds: Self.seconds(arrival - now),
                retryAfterSeconds: max(1, Self.seconds(wait)))
        }
        theoreticalArrival = arrival + interval
        reach = window
        let used = theoreticalArrival - now
        let remaining = Int(max(0, (tolerance + interval - used) / interval))
        return RateLimitDecision(
            allowed: true, limit: limit, remaining: remaining, resetSeconds: Self.seconds(used), retryAfterSeconds: 0)
    }

    /// Gives back one admitted request: another limit refused it after this one let it through, and a refused
    /// request costs nothing.
    public mutating func refund(limit: RateLimit) {
        theoreticalArrival -= limit.emissionInterval
    }

    /// True once the state says no more than a fresh one would: it can be forgotten.
    public func isIdle(at now: Int64) -> Bool { theoreticalArrival <= now }

    private static func seconds(_ microseconds: Int64) -> Int {
        Int((microseconds + 999_999) / 1_000_000)
    }
}
