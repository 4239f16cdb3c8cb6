/// Evaluation-level errors: the whole request fails (`EvaluationError` of the public API).
public enum EvaluationError: Error, Sendable, Equatable {
    /// The context is invalid; `violations` name each offending field by JSON Pointer, never echoing values.
    case contextInvalid([ContextViolation])
    /// The person has turned the feature off for this app (after any cooldown).
    case denied
    /// Too many requests for the app on one device, or for the app as a whole (its key).
    case rateLimitExceeded(RateLimitRejection)
    /// Something failed on our side; a retry may work.
    case serverError
    /// The service cannot evaluate now (e.g. no model can be loaded for the category).
    case notAvailable

    /// The wire name of the public API.
    public var code: String {
        switch self {
        case .contextInvalid: "contextInvalid"
        case .denied: "denied"
        case .rateLimitExceeded: "rateLimitExceeded"
        case .serverError: "serverError"
        case .notAvailable: "notAvailable"
        }
    }
}

/// Which limit refused a request and when to come back, for the 429 answer and its RateLimit fields.
public struct RateLimitRejection: Sendable, Equatable {
    /// The policy's name on the wire: `key`, `device` or `sandboxOverride`.
    public var scope: String
    public var limit: RateLimit
    public var retryAfterSeconds: Int
    public var resetSeconds: Int

    public init(scope: String, limit: RateLimit, retryAfterSeconds: Int, resetSeconds: Int) {
        self.scope = scope
        self.limit = limit
        self.retryAfterSeconds = retryAfterSeconds
        self.resetSeconds = resetSeconds
    }

    public init(scope: String, decision: RateLimitDecision) {
        self.init(scope: scope, limit: decision.limit, retryAfterSeconds: decision.retryAfterSeconds, resetSeconds: decision.resetSeconds)
    }
}

/// One reason a request's context is invalid: where (a JSON Pointer into the request body), a stable code, and a
/// sentence built from catalogue facts only, never from the value sent.
public struct ContextViolation: Sendable, Equatable {
    public var pointer: String
    public var code: String
    public var detail: String
    /// The escaped name of the member a violation is about when `pointer` names the object holding it instead (a
    /// name that is not repeated back, `JSONPointer.isEchoable`): decoders use it to tell that member's violation
    /// from its siblings'. Never sent, and not part of equality, which is about what the client is told.
    public var member: String?
    /// Set when the violation is about a query or path parameter, which `pointer` then names (a body has JSON
    /// Pointers; a parameter has only its name, or `""` for one whose name is not repeated).
    public var parameter: ParameterPlace?

    /// Where a parameter is sent.
    public enum ParameterPlace: String, Sendable {
        case query, path
    }

    public init(pointer: String, code: String, detail: String, member: String? = nil, parameter: ParameterPlace? = nil) {
        self.pointer = pointer
        self.code = code
        self.detail = detail
        self.member = member
        self.parameter = parameter
    }

    public static func == (lhs: ContextViolation, rhs: ContextViolation) -> Bool {
        lhs.pointer == rhs.pointer && lhs.code == rhs.code && lhs.detail == rhs.detail && lhs.parameter == rhs.parameter
    }

    public init(_ violation: FeatureViolation) {
        self.init(pointer: violation.pointer, code: violation.reason.code, detail: violation.reason.message)
    }
}

/// Insight-level errors: inside one insight's outcome, while the other insights of the evaluation still succeed.
public enum InsightErrorCode: String, Sendable, Equatable, CaseIterable {
    case rateLimitError
    case insightVersionUnavailable
    case insightVersionIncompatible
    case insightEvaluationFailed
    case insightUnavailable
}

/// The evaluation-level errors a sandbox key may force.
public enum ForcedEvaluationError: String, Sendable, CaseIterable {
    case contextInvalid, denied, rateLimitExceeded, serverError, notAvailable
}

/// Sandbox-only overrides that force outcomes or errors so apps can test their decision logic and UX.
public struct SandboxOverrides: Sendable, Equatable {
    public var outcome: RiskLevel?
    public var insightError: InsightErrorCode?
    public var evaluationError: ForcedEvaluationError?

    public init(outcome: RiskLevel? = nil, insightError: InsightErrorCode? = nil, evaluationError: ForcedEvaluationError? = nil) {
        self.outcome = outcome
        self.insightError = insightError
        self.evaluationError = evaluationError
    }

    public var isEmpty: Bool { outcome == nil && insightError == nil && evaluationError == nil }
}
