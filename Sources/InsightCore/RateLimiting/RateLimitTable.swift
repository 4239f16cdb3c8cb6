import Synchronization

/// GCRA states by key, in shards so that threads admitting different keys rarely meet on a lock. Idle states (whose
/// allowance is full again) are swept out as the table is used, so memory follows the active keys only.
public final class RateLimitTable<Key: Hashable & Sendable>: Sendable {
    private struct Shard {
        var states: [Key: GCRAState] = [:]
        var admitsSinceSweep = 0
    }

    /// A class per shard: `Mutex` is not copyable, so it cannot sit in an array directly.
    private final class ShardBox: Sendable {
        let state = Mutex(Shard())
    }

    private let shards: [ShardBox]
    private let sweepEvery: Int

    public init(shardCount: Int = 16, sweepEvery: Int = 4096) {
        shards = (0..<max(1, shardCount)).map { _ in ShardBox() }
        self.sweepEvery = sweepEvery
    }

    /// Admits one request for `key` at `now` (milliseconds).
    public func admit(_ key: Key, limit: RateLimit, now: Int64) -> RateLimitDecision {
        let micros = now &* 1000
        let index = Int(UInt(bitPattern: key.hashValue) % UInt(shards.count))
        return shards[index].state.withLock { shard in
            shard.admitsSinceSweep += 1
            if shard.admitsSinceSweep >= sweepEvery {
                shard.admitsSinceSweep = 0
                shard.states = shard.states.filter { !$0.value.isIdle(at: micros) }
            }
            let stored = shard.states[key]
            var state = stored ?? GCRAState()
            let decision = state.admit(now: micros, limit: limit)
            // A refusal changes nothing but the re-anchoring after the clock stepped back, and that must be kept:
            // left unstored, every later request re-anchored from the old state and was refused again, so a step
            // back of an hour cost the key an hour of 429s after all.
            if decision.allowed || (stored != nil && state != stored) { shard.states[key] = state }
            return decision
        }
    }

    /// Gives back one request admitted for `key` under `limit`.
    public func refund(_ key: Key, limit: RateLimit) {
        let index = Int(UInt(bitPattern: key.hashValue) % UInt(shards.count))
        shards[index].state.withLock { shard in
            guard var state = shard.states[key] else { return }
            state.refund(limit: limit)
            shard.states[key] = state
        }
    }

    /// States currently held, idle ones included until a sweep.
    public var count: Int { shards.reduce(0) { total, shard in total + shard.state.withLock { $0.states.count } } }

    /// States held after dropping those idle at `now` (milliseconds): what the metrics gauge reports, so that it
    /// falls when traffic stops rather than at the next sweep that traffic would trigger.
    public func sweepAndCount(now: Int64) -> Int {
        let micros = now &* 1000
        return shards.reduce(0) { total, shard in
            total + shard.state.withLock { shard in
                shard.states = shard.states.filter { !$0.value.isIdle(at: micros) }
                return shard.states.count
            }
        }
    }
}
