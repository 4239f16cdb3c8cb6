import HTTPServer
import InsightCore

/// The `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers): structured-field lists
/// whose items name the policy, with the quota `q` over the window `w`, and the remaining quota `r` that is back in
/// full after `t` seconds.
enum RateLimitFields {
    static func policy(_ name: String, _ limit: RateLimit) -> String {
        "\"\(name)\";q=\(limit.burst);w=\(limit.windowSeconds)"
    }

    static func current(_ name: String, remaining: Int, resetSeconds: Int) -> String {
        "\"\(name)\";r=\(remaining);t=\(resetSeconds)"
    }

    static func apply(_ decision: RateLimitDecision, name: String, to headers: inout HTTPFields) {
        headers.set("RateLimit-Policy", policy(name, decision.limit))
        headers.set("RateLimit", current(name, remaining: decision.remaining, resetSeconds: decision.resetSeconds))
    }
}
