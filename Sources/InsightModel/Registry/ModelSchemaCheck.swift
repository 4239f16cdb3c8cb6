/// Checks a model against the feature schema of its category. The catalogue lives in the domain layer, so the
/// registry takes the check from outside; an empty result means the model fits.
public protocol ModelSchemaCheck: Sendable {
    /// Problems that keep `model` from serving (insightType, category); messages name features, never values.
    func problems(with model: ModelDocument, insightType: String, category: String) -> [String]

    /// Why no manifest entry may name (insightType, category), or nil. Checked for every entry before any model is
    /// read, as a manifest error (never skipped): a category mistyped on the current entry otherwise surfaced as
    /// "isLikelyBeingCoached/payment has no current version", naming neither the entry nor the word (pipeline probe,
    /// 6 December).
    func problem(insightType: String, category: String) -> String?
}

extension ModelSchemaCheck {
    public func problem(insightType: String, category: String) -> String? { nil }
}

/// Accepts every model: for tests and tools that have no catalogue.
public struct PermissiveSchemaCheck: ModelSchemaCheck {
    public init() {}

    public func problems(with model: ModelDocument, insightType: String, category: String) -> [String] { [] }
}
