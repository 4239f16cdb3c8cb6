/// The insight types this service offers; the wire name of the only one today.
public enum InsightType {
    public static let isLikelyBeingCoached = "isLikelyBeingCoached"
    public static let supportedSchema = "version1"

    /// The type name of the public framework this API mirrors (`IsLikelyBeingCoachedInsight`) is accepted as
    /// well, so a client written against its documentation is understood; models, metrics and limits know the
    /// service's name.
    public static func serviceName(for wireName: String) -> String {
        wireName == "IsLikelyBeingCoachedInsight" ? isLikelyBeingCoached : wireName
    }

    /// What the stored record keeps for an insight type a request names but the service does not offer. The
    /// client's own text is answered back to it, but not kept: a made-up type name could carry anything.
    public static let unrecognised = "unrecognised"

    /// The name the stored record keeps: the service's name of a type it offers, `unrecognised` for any other.
    public static func recordedName(for wireName: String) -> String {
        let name = serviceName(for: wireName)
        return name == isLikelyBeingCoached ? name : unrecognised
    }
}

/// Which model version an insight request asks for.
public enum ModelVersionRequest: Sendable, Equatable {
    case current
    case specific(String)
}

/// One requested insight of an evaluation.
public struct InsightRequest: Sendable, Equatable {
    /// As the client sent it, and as its result echoes it.
    public var insightType: String
    public var schema: String
    public var modelVersion: ModelVersionRequest

    /// The name models, limits and the stored record use (see `InsightType.serviceName(for:)`).
    public var serviceInsightType: String { InsightType.serviceName(for: insightType) }

    /// The name the stored record keeps (see `InsightType.recordedName(for:)`).
    public var recordedInsightType: String { InsightType.recordedName(for: insightType) }

    public init(insightType: String, schema: String, modelVersion: ModelVersionRequest) {
        self.insightType = insightType
        self.schema = schema
        self.modelVersion = modelVersion
    }
}

/// The raw subject refs of one request. They live only for the request: the evaluator hashes them with the
/// tenant's key, and nothing prints them.
public struct SubjectReferences: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var accountRef: String?
    public var deviceRef: String?
    public var counterpartyRef: String?

    public init(accountRef: String? = nil, deviceRef: String? = nil, counterpartyRef: String? = nil) {
        self.accountRef = accountRef
        self.deviceRef = deviceRef
        self.counterpartyRef = counterpartyRef
    }

    public func value(of kind: SubjectRefKind) -> String? {
        switch kind {
        case .accountRef: accountRef
        case .deviceRef: deviceRef
        case .counterpartyRef: counterpartyRef
        }
    }

    public var description: String { "SubjectReferences(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// A decoded evaluation request, before its features are checked against the category's catalogue.
public struct EvaluationRequest: Sendable {
    public var requestID: String?
    public var category: OperationCategory
    public var insights: [InsightRequest]
    public var subject: SubjectReferences
    /// As sent: names with their JSON kinds and values. Never printed.
    public var features: [(name: String, value: FeatureInput)]

    public init(
        requestID: String?, category: OperationCategory, insights: [InsightRequest], subject: SubjectReferences,
        features: [(name: String, value: FeatureInput)]
    ) {
        self.requestID = requestID
        self.category = category
        self.insights = insights
        self.subject = subject
        self.features = features
    }
}
