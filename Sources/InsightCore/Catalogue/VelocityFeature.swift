/// The names of the velocity features every category's catalogue declares as computed by the service, so that
/// the velocity engine and the simulator fill them without spelling names by hand.
public enum VelocityFeature: String, CaseIterable, Sendable, Hashable {
    case evaluationsPerAccount10m
    case evaluationsPerAccount1h
    case evaluationsPerAccount24h
    case distinctDevicesPerAccount24h
    case distinctAccountsPerCounterparty1h
    case highOutcomesPerAccount7d
}
