/// Checks a model against the feature schema of its category. The catalogue lives in the domain layer, so the
/// registry takes the check from outside; an empty result means the model fits.
public protocol ModelSchemaCheck: Sendable {
    /// Problems that keep `model` from serving (insightType, category); messages name features, never values.
    func problems(with model: ModelDocument, insightType: String, category: String) -> [String]
}

/// Accepts every model: for tests and tools that have no catalogue.
public struct PermissiveSchemaCheck: ModelSchemaCheck {
    public init() {}

    public func problems(with model: ModelDocument, insightType: String, category: String) -> [String] { [] }
}
