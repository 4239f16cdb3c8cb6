/// What a back office confirmed about an evaluated operation.
public enum LabelVerdict: String, Sendable, CaseIterable {
    case confirmedFraud
    case confirmedLegitimate
}

/// The scam story behind a confirmed fraud (for a legitimate operation, the kind that was suspected, or `other`).
public enum FraudType: String, Sendable, CaseIterable {
    case techSupport
    case authorityImpersonation
    case familyEmergency
    case romance
    case investment
    case other
}

/// The operation's amount as a coarse band in the account's currency, never the amount itself: an exact figure
/// could help single someone out.
public enum AmountBand: String, Sendable, CaseIterable {
    case under10
    case from10To100 = "10to100"
    case from100To1k = "100to1k"
    case from1kTo10k = "1kTo10k"
    case over10k
}
