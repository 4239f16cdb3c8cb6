import InsightCore

/// Synthetic opaque subject refs of one session; `counterpartyRef` is nil when the session names none.
public struct SimulatedSubject: Sendable, Hashable {
    public var accountRef: String
    public var deviceRef: String
    public var counterpartyRef: String?
}

/// One simulated evaluation: its label, the story it came from, the client-sent features (nil = missing), the
/// velocity features the service would compute, and the subject refs to send.
public struct SimulatedSession: Sendable {
    /// True for coached use (positive).
    public var label: Bool
    public var story: String
    /// Client-sent features in catalogue order; nil means the client would omit the feature.
    public var features: [(name: String, value: Double?)]
    /// Service-computed features in catalogue order.
    public var computed: [(name: String, value: Double)]
    public var subject: SimulatedSubject

    /// The client features as the request decoder would present them (missing ones omitted), for feeding
    /// `CategoryCatalogue.validate` or building request bodies in load tests.
    public var featureInputs: [(name: String, value: FeatureInput)] {
        features.compactMap { feature in feature.value.map { (feature.name, FeatureInput.number($0)) } }
    }
}
