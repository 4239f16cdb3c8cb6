/// Who supplies a feature's value.
public enum FeatureSource: String, CaseIterable, Sendable, Hashable, Codable {
    /// Sent by the client app in the evaluation request.
    case client
    /// Computed by the service (velocity); a client must not send it.
    case computed
}
