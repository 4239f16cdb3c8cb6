import Synchronization

/// Exact sliding-window velocity counters over keyed subject hashes, in memory, sharded by key so that event
/// loops rarely contend. State is rebuilt at start-up by replaying the stored evaluations of the longest window
/// (see `replay`), so it survives a restart without a store of its own.
///
/// Memory is bounded by `VelocityConfiguration.Limits`: per subject, times are capped (counts saturate); per shard,
/// subjects are capped, and when a shard is full the tenth of its subjects with the oldest activity is dropped
/// (their counters restart from zero). Both bounds can only lower a count, and are documented in docs/VELOCITY.md.
public final class VelocityTracker: Sendable {
    public struct Observation: Sendable {
        public var account: SubjectKey
        public var device: SubjectKey?
        public var counterparty: SubjectKey?
        /// Milliseconds since the Unix epoch.
        public var time: Int64

        public init(account: SubjectKey, device: SubjectKey?, counterparty: SubjectKey?, time: Int64) {
            self.account = account
            self.device = device
            self.counterparty = counterparty
            self.time = time
        }
    }

    struct AccountState {
        var evaluations = TimestampRing()
        var highOutcomes = TimestampRing()
        var devices = DistinctRecency()
        var lastActivity: Int64 = 0
    }

    struct CounterpartyState {
        var accounts = DistinctRecency()
        var lastActivity: Int64 = 0
    }

    struct Shard {
        var accounts: [SubjectKey: AccountState] = [:]
        var counterparties: [SubjectKey: CounterpartyState] = [:]
    }

    final class ShardBox: Sendable {
        let state = Mutex(Shard())
    }

    public let configuration: VelocityConfiguration
    private let shards: [ShardBox]
    private let accountCapacityPerShard: Int
    private let counterpartyCapacityPerShard: Int
    private let evaluationRetention: Int64
    private let deviceRetention: Int64
    private let counterpartyRetention: Int64
    private let highRetention: Int64

    public init(configuration: VelocityConfiguration, shardCount: Int = 16) {
        self.configuration = configuration
        self.shards = (0..<shardCount).map { _ in ShardBox() }
        self.accountCapacityPerShard = max(1, configuration.limits.maxTrackedAccounts / shardCount)
        self.counterpartyCapacityPerShard = max(1, configuration.limits.maxTrackedCounterparties / shardCount)
        self.evaluationRetention = configuration.retentionMilliseconds(for: .evaluationsPerAccount)
        self.deviceRetention = configuration.retentionMilliseconds(for: .distinctDevicesPerAccount)
        self.counterpartyRetention = configuration.retentionMilliseconds(for: .distinctAccountsPerCounterparty)
        self.highRetention = configuration.retentionMilliseconds(for: .highOutcomesPerAccount)
    }

    /// Records an evaluation and returns every counter's value for it, in `configuration.counters` order.
    public func observe(_ observation: Observation) -> VelocityCounts {
        var values = [Int](repeating: 0, count: configuration.counters.count)
        let limits = configuration.limits
        shard(for: observation.account).state.withLock { shard in
            var account = shard.accounts[observation.account] ?? {
                evictIfFull(&shard.accounts, capacity: accountCapacityPerShard, now: observation.time)
                return AccountState()
            }()
            record(observation, into: &account, limits: limits)
            for (index, counter) in configuration.counters.enumerated() {
                let cutoff = observation.time - Int64(counter.windowSeconds) * 1000
                switch counter.kind {
                case .evaluationsPerAccount: values[index] = account.evaluations.count(after: cutoff)
                case .distinctDevicesPerAccount: values[index] = account.devices.count(after: cutoff)
                case .highOutcomesPerAccount: values[index] = account.highOutcomes.count(after: cutoff)
                case .distinctAccountsPerCounterparty: break
                }
            }
            shard.accounts[observation.account] = account
        }
        if let counterparty = observation.counterparty {
            shard(for: counterparty).state.withLock { shard in
                var state = shard.counterparties[counterparty] ?? {
                    evictIfFull(&shard.counterparties, capacity: counterpartyCapacityPerShard, now: observation.time)
                    return CounterpartyState()
                }()
                state.accounts.removeAll(atOrBefore: observation.time - counterpartyRetention)
                state.accounts.touch(observation.account, at: observation.time, capacity: limits.maxDistinctPerSubject)
                state.lastActivity = max(state.lastActivity, observation.time)
                for (index, counter) in configuration.counters.enumerated() where counter.kind == .distinctAccountsPerCounterparty {
                    values[index] = state.accounts.count(after: observation.time - Int64(counter.windowSeconds) * 1000)
                }
                shard.counterparties[counterparty] = state
            }
        }
        return VelocityCounts(configuration: configuration, values: values)
    }

    /// Records that an evaluation of `account` at `time` ended `high`, for the high-outcome counters.
    public func recordHighOutcome(account: SubjectKey, at time: Int64) {
        shard(for: account).state.withLock { shard in
            guard var state = shard.accounts[account] else { return }
            state.highOutcomes.removeAll(atOrBefore: time - highRetention)
            state.highOutcomes.append(time, capacity: configuration.limits.maxEventsPerSubject)
            shard.accounts[account] = state
        }
    }

    /// Rebuilds state from stored evaluations, oldest first, at start-up.
    public func replay(_ observation: Observation, wasHigh: Bool) {
        _ = observe(observation)
        if wasHigh { recordHighOutcome(account: observation.account, at: observation.time) }
    }

    /// How far back `replay` must reach to restore every counter exactly.
    public var replayWindowMilliseconds: Int64 {
        Int64(configuration.counters.map(\.windowSeconds).max() ?? 0) * 1000
    }

    public var trackedAccounts: Int { shards.reduce(0) { $0 + $1.state.withLock { $0.accounts.count } } }
    public var trackedCounterparties: Int { shards.reduce(0) { $0 + $1.state.withLock { $0.counterparties.count } } }

    private func shard(for key: SubjectKey) -> ShardBox {
        shards[Int(key.low % UInt64(shards.count))]
    }

    private func record(_ observation: Observation, into account: inout AccountState, limits: VelocityConfiguration.Limits) {
        let time = observation.time
        account.evaluations.removeAll(atOrBefore: time - evaluationRetention)
        account.evaluations.append(time, capacity: limits.maxEventsPerSubject)
        account.highOutcomes.removeAll(atOrBefore: time - highRetention)
        account.devices.removeAll(atOrBefore: time - deviceRetention)
        if let device = observation.device {
            account.devices.touch(device, at: time, capacity: limits.maxDistinctPerSubject)
        }
        account.lastActivity = max(account.lastActivity, time)
    }

    /// Makes room for one more subject: drops the tenth with the oldest activity when the shard is full.
    private func evictIfFull<State>(_ table: inout [SubjectKey: State], capacity: Int, now: Int64) where State: LastActivityProviding {
        guard table.count >= capacity else { return }
        let victims = table.sorted { $0.value.lastActivity < $1.value.lastActivity }.prefix(max(1, capacity / 10))
        for (key, _) in victims { table.removeValue(forKey: key) }
    }
}

protocol LastActivityProviding { var lastActivity: Int64 { get } }
extension VelocityTracker.AccountState: LastActivityProviding {}
extension VelocityTracker.CounterpartyState: LastActivityProviding {}
