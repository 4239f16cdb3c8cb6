/// The opaque subject references an evaluation request may carry.
public enum SubjectRefKind: String, CaseIterable, Sendable, Hashable, Codable {
    case accountRef
    case deviceRef
    case counterpartyRef
}
