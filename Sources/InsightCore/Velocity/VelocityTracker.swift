import Synchronization

/// Exact sliding-window velocity counters over keyed subject hashes, in memory, sharded by key so that event
/// loops rarely contend. State is rebuilt at start-up by replaying the stored evaluations of the longest window
/// (see `replay`), so it survives a restart without a store of its own; while that runs, `isRestored` is false and
/// the evaluator answers `notAvailable` rather than score with counts that are too low.
///
/// Memory is bounded by `VelocityConfiguration.Limits`: per subject, times are capped (counts saturate); per shard,
/// subjects are capped, and a full shard makes room in the partition (tenant and environment) that can best spare
/// it (`PartitionedTable`). Both bounds can only lower a count; docs/VELOCITY.md says how much.
public final class VelocityTracker: Sendable {
    public struct Observation: Sendable {
        public var partition: VelocityPartition
        public var account: SubjectKey
        public var device: SubjectKey?
        public var counterparty: SubjectKey?
        /// Milliseconds since the Unix epoch.
        public var time: Int64

        public init(partition: VelocityPartition, account: SubjectKey, device: SubjectKey?, counterparty: SubjectKey?, time: Int64) {
            self.partition = partition
            self.account = account
            self.device = device
            self.counterparty = counterparty
            self.time = time
        }
    }

    struct AccountState: VelocityEntry {
        var evaluations = TimestampRing()
        var highOutcomes = TimestampRing()
        var devices = DistinctRecency()
        var lastActivity: Int64 = 0
        let partitionSlot: Int32
    }

    struct CounterpartyState: VelocityEntry {
        var accounts = DistinctRecency()
        var lastActivity: Int64 = 0
        let partitionSlot: Int32
    }

    struct Shard {
        var accounts: PartitionedTable<AccountState>
        var counterparties: PartitionedTable<CounterpartyState>
        /// Partitions seen by this shard, interned to small slots so entries need not hold a tenant's name.
        var slots: [VelocityPartition: Int32] = [:]
        var slotIsSandbox: [Bool] = []

        mutating func slot(for partition: VelocityPartition) -> Int32 {
            if let slot = slots[partition] { return slot }
            let slot = Int32(slotIsSandbox.count)
            slots[partition] = slot
            slotIsSandbox.append(partition.environment == .sandbox)
            return slot
        }
    }

    final class ShardBox: Sendable {
        let state: Mutex<Shard>
        init(_ shard: sending Shard) { state = Mutex(shard) }
    }

    public let configuration: VelocityConfiguration
    private let shards: [ShardBox]
    private let restored: Atomic<Bool>
    private let evaluationRetention: Int64
    private let deviceRetention: Int64
    private let counterpartyRetention: Int64
    private let highRetention: Int64
    /// An account last evaluated this long ago counts nothing in any window.
    private let accountRetention: Int64

    /// `awaitingReplay`: the tracker is not restored until `finishRestoring()` (the service's start-up, which
    /// replays stored evaluations while already listening).
    public init(configuration: VelocityConfiguration, shardCount: Int = 16, awaitingReplay: Bool = false) {
        self.configuration = configuration
        self.restored = Atomic(!awaitingReplay)
        let accountCapacity = max(1, configuration.limits.maxTrackedAccounts / shardCount)
        let counterpartyCapacity = max(1, configuration.limits.maxTrackedCounterparties / shardCount)
        self.shards = (0..<shardCount).map { _ in
            ShardBox(Shard(accounts: PartitionedTable(capacity: accountCapacity), counterparties: PartitionedTable(capacity: counterpartyCapacity)))
        }
        self.evaluationRetention = configuration.retentionMilliseconds(for: .evaluationsPerAccount)
        self.deviceRetention = configuration.retentionMilliseconds(for: .distinctDevicesPerAccount)
        self.counterpartyRetention = configuration.retentionMilliseconds(for: .distinctAccountsPerCounterparty)
        self.highRetention = configuration.retentionMilliseconds(for: .highOutcomesPerAccount)
        self.accountRetention = max(evaluationRetention, deviceRetention, highRetention)
    }

    /// Records an evaluation and returns every counter's value for it, in `configuration.counters` order.
    public func observe(_ observation: Observation) -> VelocityCounts {
        var values = [Int](repeating: 0, count: configuration.counters.count)
        let limits = configuration.limits
        shard(for: observation.account).state.withLock { shard in
            if !shard.accounts.contains(observation.account) {
                let state = AccountState(partitionSlot: shard.slot(for: observation.partition))
                let sandbox = shard.slotIsSandbox
                shard.accounts.insert(observation.account, state, expiredAtOrBefore: observation.time - accountRetention) { sandbox[$0] }
            }
            _ = shard.accounts.modify(observation.account) { account in
                record(observation, into: &account, limits: limits)
                for (index, counter) in configuration.counters.enumerated() {
                    let cutoff = observation.time - Int64(counter.windowSeconds) * 1000
                    switch counter.kind {
                    case .evaluationsPerAccount: values[index] = account.evaluations.count(after: cutoff, through: observation.time)
                    case .distinctDevicesPerAccount:
                        values[index] = account.devices.count(after: cutoff, through: observation.time, current: observation.device)
                    case .highOutcomesPerAccount: values[index] = account.highOutcomes.count(after: cutoff, through: observation.time)
                    case .distinctAccountsPerCounterparty: break
                    }
                }
            }
        }
        if let counterparty = observation.counterparty {
            shard(for: counterparty).state.withLock { shard in
                if !shard.counterparties.contains(counterparty) {
                    let state = CounterpartyState(partitionSlot: shard.slot(for: observation.partition))
                    let sandbox = shard.slotIsSandbox
                    shard.counterparties.insert(counterparty, state, expiredAtOrBefore: observation.time - counterpartyRetention) { sandbox[$0] }
                }
                _ = shard.counterparties.modify(counterparty) { state in
                    state.accounts.removeAll(atOrBefore: observation.time - counterpartyRetention)
                    state.accounts.touch(observation.account, at: observation.time, capacity: limits.maxDistinctPerSubject)
                    state.lastActivity = max(state.lastActivity, observation.time)
                    for (index, counter) in configuration.counters.enumerated() where counter.kind == .distinctAccountsPerCounterparty {
                        values[index] = state.accounts.count(
                            after: observation.time - Int64(counter.windowSeconds) * 1000, through: observation.time,
                            current: observation.account)
                    }
                }
            }
        }
        return VelocityCounts(configuration: configuration, values: values)
    }

    /// Records that an evaluation of `account` at `time` ended `high`, for the high-outcome counters.
    public func recordHighOutcome(account: SubjectKey, at time: Int64) {
        let capacity = configuration.limits.maxEventsPerSubject
        let retention = highRetention
        shard(for: account).state.withLock { shard in
            _ = shard.accounts.modify(account) { state in
                state.highOutcomes.removeAll(atOrBefore: time - retention)
                state.highOutcomes.append(time, capacity: capacity)
            }
        }
    }

    /// Rebuilds state from stored evaluations, oldest first, at start-up.
    public func replay(_ observation: Observation, wasHigh: Bool) {
        _ = observe(observation)
        if wasHigh { recordHighOutcome(account: observation.account, at: observation.time) }
    }

    /// Whether start-up's replay has finished: counts before it would be too low, so evaluations wait for it.
    public var isRestored: Bool { restored.load(ordering: .acquiring) }

    /// Marks the replay done (or not needed).
    public func finishRestoring() { restored.store(true, ordering: .releasing) }

    /// How far back `replay` must reach to restore every counter exactly.
    public var replayWindowMilliseconds: Int64 {
        Int64(configuration.counters.map(\.windowSeconds).max() ?? 0) * 1000
    }

    public var trackedAccounts: Int { shards.reduce(0) { $0 + $1.state.withLock { $0.accounts.count } } }
    public var trackedCounterparties: Int { shards.reduce(0) { $0 + $1.state.withLock { $0.counterparties.count } } }
    /// Accounts and counterparties evicted from full shards while they still held counts, since start.
    public var evictedAccounts: Int { shards.reduce(0) { $0 + $1.state.withLock { $0.accounts.evictedWithCounts } } }
    public var evictedCounterparties: Int { shards.reduce(0) { $0 + $1.state.withLock { $0.counterparties.evictedWithCounts } } }
    /// The accounts and counterparties evicted while they held counts of one environment's traffic.
    public func evicted(in environment: DeploymentEnvironment) -> (accounts: Int, counterparties: Int) {
        shards.reduce((0, 0)) { sum, shard in
            shard.state.withLock { state in
                environment == .sandbox
                    ? (sum.0 + state.accounts.evictedSandboxWithCounts, sum.1 + state.counterparties.evictedSandboxWithCounts)
                    : (sum.0 + state.accounts.evictedProductionWithCounts, sum.1 + state.counterparties.evictedProductionWithCounts)
            }
        }
    }

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
}
