import Synchronization

/// GCRA states by key, in shards so that threads admitting different keys rarely meet on a lock. Idle states (whose
/// allowance is full again) are swept out as the table is used, so memory follows the active keys only.
public final class RateLimitTable<Key: Hashable & Sendable>: Sendable {
    /// A key with its hash worked out once: choosing the shard, finding the state and storing it back then reuse
    /// it, where each used to hash the key's strings again (three times per admission, a measurable share of it).
    private struct HashedKey: Hashable, Sendable {
        let key: Key
        let hash: Int

        init(_ key: Key) {
            self.key = key
            hash = key.hashValue
        }

        static func == (lhs: HashedKey, rhs: HashedKey) -> Bool { lhs.hash == rhs.hash && lhs.key == rhs.key }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    private struct Shard {
        var states: [HashedKey: GCRAState] = [:]
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

    /// Admits one request for `key` at `now` (milliseconds); `uncut` as in `GCRAState.admit`.
    public func admit(_ key: Key, limit: RateLimit, uncut: RateLimit? = nil, now: Int64) -> RateLimitDecision {
        let micros = now &* 1000
        let hashed = HashedKey(key)
        return shard(for: hashed).state.withLock { shard in
            shard.admitsSinceSweep += 1
            if shard.admitsSinceSweep >= sweepEvery {
                shard.admitsSinceSweep = 0
                shard.states = shard.states.filter { !$0.value.isIdle(at: micros) }
            }
            guard let position = shard.states.index(forKey: hashed) else {
                var state = GCRAState()
                let decision = state.admit(now: micros, limit: limit, uncut: uncut)
                if decision.allowed { shard.states[hashed] = state }
                return decision
            }
            let stored = shard.states.values[position]
            var state = stored
            let decision = state.admit(now: micros, limit: limit, uncut: uncut)
            // A refusal changes nothing (a step back of the clock re-anchors and admits, `GCRAState.admit`); the
            // state is stored whenever it changed all the same, as a re-anchoring left unstored had every later
            // request re-anchor from the old state, so a step back of an hour cost the key an hour of 429s.
            if decision.allowed || state != stored { shard.states.values[position] = state }
            return decision
        }
    }

    /// Gives back one request admitted for `key` under `limit`.
    public func refund(_ key: Key, limit: RateLimit) {
        let hashed = HashedKey(key)
        shard(for: hashed).state.withLock { shard in
            guard let position = shard.states.index(forKey: hashed) else { return }
            shard.states.values[position].refund(limit: limit)
        }
    }

    private func shard(for key: HashedKey) -> ShardBox {
        shards[Int(UInt(bitPattern: key.hash) % UInt(shards.count))]
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
