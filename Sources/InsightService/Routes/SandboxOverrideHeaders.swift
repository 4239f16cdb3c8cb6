import HTTPServer
import InsightCore

/// Reads the sandbox override headers. A production key sending any of them gets 400: an app must never ship
/// with forced outcomes.
enum SandboxOverrideHeaders {
    static let outcome = "Trust-Insights-Override-Outcome"
    static let insightError = "Trust-Insights-Override-Insight-Error"
    static let evaluationError = "Trust-Insights-Override-Evaluation-Error"
    /// What the three names share.
    static let prefix = "Trust-Insights-Override-"

    static func parse(_ headers: HTTPFields, environment: DeploymentEnvironment) throws(ServiceProblem) -> SandboxOverrides {
        var overrides = SandboxOverrides()
        // Almost no request carries any of them: one pass over the fields instead of six lookups.
        guard headers.containsName(withPrefix: prefix) else { return overrides }
        for name in [outcome, insightError, evaluationError] where headers[name] != nil {
            if environment == .production { throw .overrideInProduction(header: name) }
        }
        if let value = headers[outcome] {
            guard let level = RiskLevel(rawValue: value) else { throw .invalidOverride(header: outcome, allowed: RiskLevel.allCases.map(\.rawValue)) }
            overrides.outcome = level
        }
        if let value = headers[insightError] {
            guard let code = InsightErrorCode(rawValue: value) else { throw .invalidOverride(header: insightError, allowed: InsightErrorCode.allCases.map(\.rawValue)) }
            overrides.insightError = code
        }
        if let value = headers[evaluationError] {
            guard let code = ForcedEvaluationError(rawValue: value) else { throw .invalidOverride(header: evaluationError, allowed: ForcedEvaluationError.allCases.map(\.rawValue)) }
            overrides.evaluationError = code
        }
        return overrides
    }
}
