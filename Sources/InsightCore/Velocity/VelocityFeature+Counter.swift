/// What each catalogue velocity feature's name promises, so `velocity.json` cannot give the name another meaning
/// (a counter named `evaluationsPerAccount10m` that counts `high` outcomes over a day).
extension VelocityFeature {
    public var counterKind: VelocityConfiguration.CounterKind {
        switch self {
        case .evaluationsPerAccount10m, .evaluationsPerAccount1h, .evaluationsPerAccount24h: .evaluationsPerAccount
        case .distinctDevicesPerAccount24h: .distinctDevicesPerAccount
        case .distinctAccountsPerCounterparty1h: .distinctAccountsPerCounterparty
        case .highOutcomesPerAccount7d: .highOutcomesPerAccount
        }
    }

    public var windowSeconds: Int {
        switch self {
        case .evaluationsPerAccount10m: 600
        case .evaluationsPerAccount1h, .distinctAccountsPerCounterparty1h: 3600
        case .evaluationsPerAccount24h, .distinctDevicesPerAccount24h: 86_400
        case .highOutcomesPerAccount7d: 604_800
        }
    }
}
