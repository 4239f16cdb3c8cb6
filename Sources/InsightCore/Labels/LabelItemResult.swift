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
    /// The most shape problems an item's `reason` lists; the rest are counted. It bounds an answer (and the copy kept
    /// for its Idempotency-Key) to under two kilobytes per item (1.9 KB with ten names not repeated, whose details
    /// say why), whatever the item holds.
    public static let maximumListed = 10

    public var violations: [ContextViolation]
    /// Problems found beyond those listed.
    public var unlisted: Int

    public init(_ violations: [ContextViolation], unlisted: Int = 0) {
        self.violations = violations
        self.unlisted = unlisted
    }

    /// One sentence per field, such as `/items/3/email is not a field of this request`, then how many more there were.
    public var reason: String {
        let listed = violations.map { "\($0.pointer) \($0.detail)" }.joined(separator: "; ")
        return unlisted == 0 ? listed : listed + "; and \(unlisted) more not listed"
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
