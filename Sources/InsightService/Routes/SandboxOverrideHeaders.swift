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
    /// How every name that could be meant as an override opens, near misses included: `X-Trust-Insights-Override-Outcome`
    /// or `Trust-Insight-Override-Outcome` would otherwise be ignored as any unknown header is.
    private static let lookalikeOpenings = ["Trust-Insight", "X-Trust-Insight"]

    static func parse(_ headers: HTTPFields, environment: DeploymentEnvironment) throws(ServiceProblem) -> SandboxOverrides {
        var overrides = SandboxOverrides()
        // Almost no request carries any of them: one pass over the fields instead of six lookups.
        guard lookalikeOpenings.contains(where: { headers.containsName(withPrefix: $0) }) else { return overrides }
        let known = [outcome, insightError, evaluationError]
        for name in known where headers[name] != nil {
            if environment == .production { throw .overrideInProduction(header: name) }
        }
        // A misspelt override (`...-Outcomes`) would be ignored, and the test it was meant for would pass for the
        // wrong reason.
        // Only requests that carry the prefix get here (sandbox tests), so the lowercased copies cost nothing that matters.
        let knownLowercased = known.map(Self.lowercasedASCII)
        for field in headers {
            let name = Self.lowercasedASCII(field.name)
            guard Self.isNamedLikeAnOverride(name), !knownLowercased.contains(name) else { continue }
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

    /// `trust-insights-override` or `trust-insight-override`, with or without a leading `x-`, then anything or
    /// nothing: a misspelt override. Other headers that merely mention an override (`X-HTTP-Method-Override`) are
    /// not ours to refuse.
    private static func isNamedLikeAnOverride(_ lowercasedName: [UInt8]) -> Bool {
        let name = lowercasedName.starts(with: "x-".utf8) ? lowercasedName.dropFirst(2) : lowercasedName[...]
        return name.starts(with: "trust-insights-override".utf8) || name.starts(with: "trust-insight-override".utf8)
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
