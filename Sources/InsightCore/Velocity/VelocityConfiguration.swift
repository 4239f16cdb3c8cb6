/// Velocity counters, the rules over them, and the memory bounds, as read from `config/velocity.json`.
public struct VelocityConfiguration: Sendable, Equatable {
    /// What a counter counts. Each counter's name is also the computed feature the model sees.
    public enum CounterKind: String, Sendable, CaseIterable {
        /// Evaluations of the account in the window, including the current one.
        case evaluationsPerAccount
        /// Distinct devices the account was evaluated on in the window, including the current device.
        case distinctDevicesPerAccount
        /// Distinct accounts evaluated against the counterparty in the window, including the current account.
        case distinctAccountsPerCounterparty
        /// `high` outcomes of the account in the window, before the current evaluation.
        case highOutcomesPerAccount

        /// Counts distinct subjects (capped by `maxDistinctPerSubject`) rather than events (`maxEventsPerSubject`).
        public var isDistinct: Bool { self == .distinctDevicesPerAccount || self == .distinctAccountsPerCounterparty }
    }

    public struct Counter: Sendable, Equatable {
        public var name: String
        public var kind: CounterKind
        public var windowSeconds: Int

        public init(name: String, kind: CounterKind, windowSeconds: Int) {
            self.name = name
            self.kind = kind
            self.windowSeconds = windowSeconds
        }
    }

    /// When `counter` reaches `atLeast`, the outcome of every insight is raised to at least `raiseTo`.
    public struct Rule: Sendable, Equatable {
        public var name: String
        public var counter: String
        public var atLeast: Int
        public var raiseTo: RiskLevel

        public init(name: String, counter: String, atLeast: Int, raiseTo: RiskLevel) {
            self.name = name
            self.counter = counter
            self.atLeast = atLeast
            self.raiseTo = raiseTo
        }
    }

    public struct Limits: Sendable, Equatable {
        /// Accounts tracked at once, across all tenants and environments; a full shard evicts as `PartitionedTable` says.
        public var maxTrackedAccounts: Int
        /// Counterparties tracked at once.
        public var maxTrackedCounterparties: Int
        /// Timestamps kept per account and kind; counts saturate at this value.
        public var maxEventsPerSubject: Int
        /// Distinct devices kept per account, and distinct accounts per counterparty; counts saturate here.
        public var maxDistinctPerSubject: Int

        public init(maxTrackedAccounts: Int = 1_000_000, maxTrackedCounterparties: Int = 200_000, maxEventsPerSubject: Int = 1024, maxDistinctPerSubject: Int = 256) {
            self.maxTrackedAccounts = maxTrackedAccounts
            self.maxTrackedCounterparties = maxTrackedCounterparties
            self.maxEventsPerSubject = maxEventsPerSubject
            self.maxDistinctPerSubject = maxDistinctPerSubject
        }
    }

    public var counters: [Counter]
    public var rules: [Rule]
    public var limits: Limits

    public init(counters: [Counter], rules: [Rule], limits: Limits = Limits()) {
        self.counters = counters
        self.rules = rules
        self.limits = limits
    }

    /// The longest window of each kind: how long its events must be kept.
    func retentionMilliseconds(for kind: CounterKind) -> Int64 {
        Int64(counters.filter { $0.kind == kind }.map(\.windowSeconds).max() ?? 0) * 1000
    }

    /// The defaults shipped in `config/velocity.json`.
    public static let standard = VelocityConfiguration(
        counters: [
            Counter(name: "evaluationsPerAccount10m", kind: .evaluationsPerAccount, windowSeconds: 600),
            Counter(name: "evaluationsPerAccount1h", kind: .evaluationsPerAccount, windowSeconds: 3600),
            Counter(name: "evaluationsPerAccount24h", kind: .evaluationsPerAccount, windowSeconds: 86400),
            Counter(name: "distinctDevicesPerAccount24h", kind: .distinctDevicesPerAccount, windowSeconds: 86400),
            Counter(name: "distinctAccountsPerCounterparty1h", kind: .distinctAccountsPerCounterparty, windowSeconds: 3600),
            Counter(name: "highOutcomesPerAccount7d", kind: .highOutcomesPerAccount, windowSeconds: 604_800),
        ],
        rules: [
            Rule(name: "accountEvaluationBurst", counter: "evaluationsPerAccount10m", atLeast: 6, raiseTo: .medium),
            Rule(name: "manyDevicesForAccount", counter: "distinctDevicesPerAccount24h", atLeast: 4, raiseTo: .medium),
            Rule(name: "manyAccountsPayingCounterparty", counter: "distinctAccountsPerCounterparty1h", atLeast: 8, raiseTo: .high),
            Rule(name: "repeatedHighOutcomes", counter: "highOutcomesPerAccount7d", atLeast: 3, raiseTo: .high),
        ]
    )
}
