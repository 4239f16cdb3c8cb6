/// The kind of operation a person is performing; it selects the feature catalogue and the model logic.
/// Raw values are the wire names of the public API.
public enum OperationCategory: String, CaseIterable, Sendable, Hashable, Codable {
    /// Any exchange of assets, content or money, including in-game purchases.
    case payment
    /// Updating account details or security information.
    case account
    /// Requests to costly or constrained infrastructure, such as AI inference.
    case resourceUse
    /// Sending messages, submitting forms or signing documents.
    case communication
    /// A fallback for operations that fit none of the above.
    case other
}
