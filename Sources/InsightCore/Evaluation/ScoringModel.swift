/// A model ready to score one category's feature vectors. The model runtime provides it; core tests use fakes.
public protocol ScoringModel: Sendable {
    var version: String { get }
    /// Probability at or above which the outcome is `medium`, and `high`.
    var mediumThreshold: Double { get }
    var highThreshold: Double { get }
    /// The probability of coaching for `features` (NaN marks a missing value).
    func probability(for features: FeatureVector) throws -> Double
    /// Up to `limit` feature names whose path contributions pushed the score up most, largest first.
    func reasonFeatures(for features: FeatureVector, limit: Int) -> [String]
    /// A model under trial (`candidate` in the manifest): its answers go to whoever asks for its version, but its
    /// `high`s do not count towards an account's high outcomes, so a model nobody has approved cannot change what
    /// the current model answers for that account.
    var isCandidate: Bool { get }
}

extension ScoringModel {
    public var isCandidate: Bool { false }
}

/// The answer of a model lookup.
public enum ModelLookup: Sendable {
    case found(any ScoringModel, currentVersion: String?)
    case versionUnavailable(currentVersion: String?)
    case versionIncompatible(currentVersion: String?)
    case insightUnavailable
}

/// One consistent set of models: a request keeps the snapshot it started with across a reload.
public protocol ModelSnapshot: Sendable {
    func lookup(insightType: String, category: OperationCategory, version: ModelVersionRequest) -> ModelLookup
    /// Every loaded model version, for `GET /v1/models`.
    var listing: [ModelListing] { get }
}

public protocol ModelProvider: Sendable {
    func currentSnapshot() -> any ModelSnapshot
}

/// One model version as `GET /v1/models` lists it.
public struct ModelListing: Sendable, Equatable {
    public var insightType: String
    public var category: OperationCategory
    public var version: String
    /// current, prior or candidate.
    public var status: String
    public var features: [String]

    public init(insightType: String, category: OperationCategory, version: String, status: String, features: [String]) {
        self.insightType = insightType
        self.category = category
        self.version = version
        self.status = status
        self.features = features
    }
}
