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
        let known = [outcome, insightError, evaluationError]
        for name in known where headers[name] != nil {
            if environment == .production { throw .overrideInProduction(header: name) }
        }
        // A misspelt override (`...-Outcomes`) would be ignored, and the test it was meant for would pass for the
        // wrong reason.
        // Only requests that carry the prefix get here (sandbox tests), so the lowercased copies cost nothing that matters.
        let knownLowercased = known.map(Self.lowercasedASCII)
        let prefixLowercased = Self.lowercasedASCII(prefix)
        for field in headers {
            let name = Self.lowercasedASCII(field.name)
            guard name.starts(with: prefixLowercased), !knownLowercased.contains(name) else { continue }
            if environment == .production { throw .overrideInProduction(header: field.name) }
            throw .unknownOverride(header: field.name, known: known)
        }
        // Two lines of one override read as `high, medium` (RFC 9110 section 5.3), which names no single value.
        if let name = [outcome, insightError, evaluationError].first(where: { headers.count(of: $0) > 1 }) {
            throw .invalidOverride(header: name, allowed: Self.allowed(name))
        }
        if let value = headers[outcome] {
            guard let level = RiskLevel(rawValue: value) else { throw .invalidOverride(header: outcome, allowed: Self.allowed(outcome)) }
            overrides.outcome = level
        }
        if let value = headers[insightError] {
            guard let code = InsightErrorCode(rawValue: value) else { throw .invalidOverride(header: insightError, allowed: Self.allowed(insightError)) }
            overrides.insightError = code
        }
        if let value = headers[evaluationError] {
            guard let code = ForcedEvaluationError(rawValue: value) else { throw .invalidOverride(header: evaluationError, allowed: Self.allowed(evaluationError)) }
            overrides.evaluationError = code
        }
        return overrides
    }

    private static func lowercasedASCII(_ text: String) -> [UInt8] {
        text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
    }

    private static func allowed(_ header: String) -> [String] {
        switch header {
        case outcome: RiskLevel.allCases.map(\.rawValue)
        case insightError: InsightErrorCode.allCases.map(\.rawValue)
        default: ForcedEvaluationError.allCases.map(\.rawValue)
        }
    }
}
