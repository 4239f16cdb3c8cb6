import Foundation
import Testing

/// A tenant the rate limits name that has no key is most likely misspelt: the start says so (configuration probe,
/// 7 December: `"dmeo"` started without a word, and its limit never applied).
@Suite struct RateLimitTenantWarningTests {
    @Test func aTenantWithNoKeysIsNamedAtStart() throws {
        let config = try LiveService.configFolder(rateLimits: """
            {"formatVersion": 1, "tenants": {"demo": {"ratePerSecond": 5, "burst": 10}, "dmeo": {"ratePerSecond": 1, "burst": 2}}}
            """)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let service = try LiveService { $0.configDir = config }
        let warning = service.logs.lines.first { $0.contains("rate limits name tenants that have no keys") }
        #expect(warning?.contains(#""tenants":"dmeo""#) == true, "\(service.logs.lines)")
    }
}
