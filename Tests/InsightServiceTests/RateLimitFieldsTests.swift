import Testing
import InsightCore
@testable import InsightService

/// The field values are written byte by byte; they must read exactly as the structured-field items they stand for.
@Suite struct RateLimitFieldsTests {
    @Test func itemsReadAsTheirInterpolatedForm() {
        let values = [0, 1, 9, 10, 99, 100, 12_345, 1_000_000, -1, -10, Int.max, Int.min]
        for name in ["evaluations", "k", "sandboxOverride", "a-much-longer-policy-name-than-usual"] {
            for first in values {
                for second in values {
                    #expect(RateLimitFields.current(name, remaining: first, resetSeconds: second)
                        == "\"\(name)\";r=\(first);t=\(second)")
                }
            }
            let limit = RateLimit(ratePerSecond: 2.5, burst: 40)
            #expect(RateLimitFields.policy(name, limit) == "\"\(name)\";q=40;w=\(limit.windowSeconds)")
        }
    }
}
