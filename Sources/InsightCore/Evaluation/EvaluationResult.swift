/// One insight's answer: a value or an insight-level error.
public enum InsightOutcome: Sendable, Equatable {
    case value(RiskLevel)
    case error(InsightErrorCode)
}

public struct InsightResult: Sendable, Equatable {
    public var insightID: String
    public var insightType: String
    public var modelVersion: String?
    public var newestModelVersion: String?
    public var isUsingCurrentModel: Bool
    public var outcome: InsightOutcome
    /// Feature names that pushed the score up, then the names of velocity rules that fired; never values.
    public var reasonCodes: [String]

    public init(
        insightID: String, insightType: String, modelVersion: String?, newestModelVersion: String?,
        isUsingCurrentModel: Bool, outcome: InsightOutcome, reasonCodes: [String]
    ) {
        self.insightID = insightID
        self.insightType = insightType
        self.modelVersion = modelVersion
        self.newestModelVersion = newestModelVersion
        self.isUsingCurrentModel = isUsingCurrentModel
        self.outcome = outcome
        self.reasonCodes = reasonCodes
    }
}

/// The result of an evaluation, as answered and as signed.
public struct EvaluationResult: Sendable, Equatable {
    public var evaluationID: String
    public var requestID: String?
    public var category: OperationCategory
    /// When the insights were computed, and when the answer left the service (milliseconds since the epoch).
    public var generationTimestamp: Int64
    public var serverTimestamp: Int64
    public var environment: DeploymentEnvironment
    public var additionalInfo: [(key: String, value: String)]
    public var insights: [InsightResult]

    public init(
        evaluationID: String, requestID: String?, category: OperationCategory, generationTimestamp: Int64,
        serverTimestamp: Int64, environment: DeploymentEnvironment, additionalInfo: [(key: String, value: String)],
        insights: [InsightResult]
    ) {
        self.evaluationID = evaluationID
        self.requestID = requestID
        self.category = category
        self.generationTimestamp = generationTimestamp
        self.serverTimestamp = serverTimestamp
        self.environment = environment
        self.additionalInfo = additionalInfo
        self.insights = insights
    }

    public static func == (lhs: EvaluationResult, rhs: EvaluationResult) -> Bool {
        lhs.evaluationID == rhs.evaluationID && lhs.requestID == rhs.requestID && lhs.category == rhs.category
            && lhs.generationTimestamp == rhs.generationTimestamp && lhs.serverTimestamp == rhs.serverTimestamp
            && lhs.environment == rhs.environment && lhs.insights == rhs.insights
            && lhs.additionalInfo.map(\.key) == rhs.additionalInfo.map(\.key)
            && lhs.additionalInfo.map(\.value) == rhs.additionalInfo.map(\.value)
    }
}

/// What is kept of an evaluation: no features, no raw refs; subjects only as keyed hashes.
public struct EvaluationRecord: Sendable, Equatable {
    public struct Insight: Sendable, Equatable {
        public var insightID: String
        public var position: Int
        public var insightType: String
        public var modelVersion: String?
        public var outcome: RiskLevel?
        public var error: InsightErrorCode?

        public init(insightID: String, position: Int, insightType: String, modelVersion: String?, outcome: RiskLevel?, error: InsightErrorCode?) {
            self.insightID = insightID
            self.position = position
            self.insightType = insightType
            self.modelVersion = modelVersion
            self.outcome = outcome
            self.error = error
        }
    }

    public var evaluationID: String
    public var tenant: TenantID
    public var environment: DeploymentEnvironment
    public var keyID: String
    public var category: OperationCategory
    public var createdAt: Int64
    public var account: SubjectKey?
    public var device: SubjectKey?
    public var counterparty: SubjectKey?
    public var insights: [Insight]
    /// Whether the evaluation itself (model and velocity rules) found `high` for an insight: what the account's
    /// `highOutcomesPerAccount7d` counts, now and when replayed at start-up. A sandbox override changes the answer
    /// only, so a forced `high` does not count and a real `high` answered as a forced `unknown` does.
    public var countsAsHighOutcome: Bool

    /// `countsAsHighOutcome` defaults to what the insights' outcomes say, which is right for any record without
    /// sandbox overrides.
    public init(
        evaluationID: String, tenant: TenantID, environment: DeploymentEnvironment, keyID: String,
        category: OperationCategory, createdAt: Int64, account: SubjectKey?, device: SubjectKey?,
        counterparty: SubjectKey?, insights: [Insight], countsAsHighOutcome: Bool? = nil
    ) {
        self.countsAsHighOutcome = countsAsHighOutcome ?? insights.contains { $0.outcome == .high }
        self.evaluationID = evaluationID
        self.tenant = tenant
        self.environment = environment
        self.keyID = keyID
        self.category = category
        self.createdAt = createdAt
        self.account = account
        self.device = device
        self.counterparty = counterparty
        self.insights = insights
    }
}

/// Where evaluation records go. `record` hands the record over and returns at once; the pending write settles
/// once the record is durable (or has failed to be).
public protocol EvaluationRecorder: Sendable {
    func record(_ evaluation: EvaluationRecord) -> PendingWrite
}
