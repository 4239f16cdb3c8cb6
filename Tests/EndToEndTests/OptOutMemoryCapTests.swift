import Foundation
import Testing
@testable import TrustInsightsApp

/// Memory holds at most `authorizationOptOutsInMemory` opt-outs; the rest are kept by the database alone, marked in
/// a filter, and their subjects' evaluations are still denied, before and after a restart.
@Suite struct OptOutMemoryCapTests {
    @Test func optOutsPastMemorysCapStillDenyTheirSubjectsAcrossARestart() throws {
        func configure(_ configuration: inout ServiceConfiguration) {
            configuration.authorizationCooldownSeconds = 0
            configuration.authorizationOptOutsInMemory = 1
            configuration.authorizationOptOutFilterBytes = 1024
        }
        var first: LiveService? = try LiveService(configure: configure)
        let dataDir = try #require(first?.dataDirectory)
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        first?.removesDataFolder = false
        let key = try #require(try first?.key())

        func check(_ service: LiveService, denied: [String], evaluated: [String], held: Int, inStoreOnly: Int) throws {
            let client = try service.client()
            for account in denied + evaluated {
                let response = try client.request("POST", "/v1/evaluations", headers: [
                    ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
                ], body: Requests.payment(account: account))
                let expected = denied.contains(account) ? 403 : 200
                #expect(response.status == expected, "\(account): \(response.text)")
                if expected == 403 { #expect(response.text.contains("denied"), "\(response.text)") }
            }
            let metrics = try client.request("GET", "/metrics").text
            #expect(metrics.contains("\ntrust_insights_authorization_opt_outs_held \(held)\n"), "\(metrics)")
            #expect(metrics.contains("\ntrust_insights_authorization_opt_outs_in_store_only \(inStoreOnly)\n"), "\(metrics)")
        }
        func put(_ service: LiveService, _ account: String, _ status: String) throws {
            let response = try service.client().request(
                "PUT", "/v1/authorization/\(account)", headers: [("Authorization", "Bearer \(key)"), ("Content-Type", "application/json")],
                body: Array(#"{"status": "\#(status)"}"#.utf8))
            #expect(response.status == 200, "\(response.text)")
        }

        do {
            let service = try #require(first)
            for account in ["acct-cap-a", "acct-cap-b", "acct-cap-c"] { try put(service, account, "denied") }
            try check(service, denied: ["acct-cap-a", "acct-cap-b", "acct-cap-c"], evaluated: ["acct-cap-free"], held: 1, inStoreOnly: 2)
            // Opting back in works for one only the store keeps; its mark in the filter stays and costs a read.
            try put(service, "acct-cap-c", "authorized")
            try check(service, denied: ["acct-cap-a", "acct-cap-b"], evaluated: ["acct-cap-c"], held: 1, inStoreOnly: 2)
            let state = try service.client().request("GET", "/v1/authorization/acct-cap-b", headers: [("Authorization", "Bearer \(key)")])
            #expect(state.text.contains(#""status":"denied""#), "\(state.text)")
        }
        first = nil
        let second = try LiveService { configure(&$0); $0.dataDir = dataDir }
        try check(second, denied: ["acct-cap-a", "acct-cap-b"], evaluated: ["acct-cap-c", "acct-cap-free"], held: 1, inStoreOnly: 1)
    }

    /// The filter is reserved at start: a size the machine cannot give stops start-up, naming the setting, where a
    /// lazy reservation took the process down inside a client's opt-out, and then at every start.
    /// It is reserved before the data folder is touched, so that a first start refused for it has printed and
    /// stored no demo keys (an operator probe saw the keys printed first, under `ulimit -v`).
    @Test func aFilterSizeThatCannotBeReservedStopsStartUpNamingTheSetting() {
        // An empty folder that is there already, which LiveService leaves in place when start-up fails.
        let dataDir = NSTemporaryDirectory() + "trust-insights-filter-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        #expect(throws: CommandLineError.configuration(
            key: "authorizationOptOutFilterBytes", message: "cannot reserve \(Int.max) bytes of memory for the opt-out filter")) {
            _ = try LiveService { $0.authorizationOptOutFilterBytes = .max; $0.dataDir = dataDir }
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: dataDir)) == [], "the data folder was not touched")
    }
}
