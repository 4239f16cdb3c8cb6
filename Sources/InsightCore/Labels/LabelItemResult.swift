/// What became of one item of a label batch.
public enum LabelItemOutcome: String, Sendable, CaseIterable {
    /// The insight's first label.
    case accepted
    /// The same content as the insight's latest label: nothing new is stored.
    case duplicate
    /// Different content from the latest label: stored as a new version, which now counts; the history is kept.
    case revised
    /// The item breaks the schema or the date rules; `reason` names the fields.
    case rejected
    /// Unknown insightID, or another tenant's: deliberately the same answer.
    case notFound
}

/// Why an item was rejected: the offending fields by JSON Pointer, with what was expected.
public struct LabelRejection: Error, Sendable, Equatable {
    public var violations: [ContextViolation]

    public init(_ violations: [ContextViolation]) { self.violations = violations }

    /// One sentence per field, such as `/items/3/email is not a field of this request`.
    public var reason: String {
        violations.map { "\($0.pointer) \($0.detail)" }.joined(separator: "; ")
    }
}

/// One entry of the answer, in the order of the items.
public struct LabelItemResult: Sendable, Equatable {
    /// The item's insightID when it has the shape of one; nil otherwise (nothing else of the item is echoed).
    public var insightID: String?
    public var outcome: LabelItemOutcome
    public var reason: String?

    public init(insightID: String?, outcome: LabelItemOutcome, reason: String? = nil) {
        self.insightID = insightID
        self.outcome = outcome
        self.reason = reason
    }
}
