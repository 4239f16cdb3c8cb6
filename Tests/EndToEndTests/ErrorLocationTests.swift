import Foundation
import Testing
@testable import TrustInsightsApp

/// `errors[]` says where each field is: an entry with no `in` has an RFC 6901 pointer into the body; one with `in`
/// (`query`, `path` or `header`) names a parameter or header field in `pointer`, which is no JSON Pointer (HTTP
/// probe, 7 December: `"pointer": "x"` for a query parameter read as a malformed pointer, and `""` for one whose
/// name is not repeated as the whole body).
@Suite(.serialized, .sharedLiveService) struct ErrorLocationTests {
    let service: LiveService
    let clientKey: String

    init() throws {
        service = try SharedLiveService.service()
        clientKey = try service.key()
    }

    private func errors(_ method: String, _ target: String, headers: [(String, String)] = [], body: String? = nil) throws -> [[String: String]] {
        let response = try service.client().request(
            method, target, headers: [("Authorization", "Bearer \(clientKey)"), ("Content-Type", "application/json")] + headers,
            body: body.map { Array($0.utf8) })
        #expect((400..<500).contains(response.status), "\(method) \(target): \(response.status)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return try #require(object["errors"] as? [[String: String]], "\(object)")
    }

    @Test func eachEntrySaysWhetherItPointsIntoTheBodyOrNamesAParameterOrHeader() throws {
        // The body: RFC 6901 pointers, no `in`.
        let body = try errors("POST", "/v1/evaluations", body: #"{"operationCategory": "payment", "unknownThing": 1}"#)
        #expect(!body.isEmpty && body.allSatisfy { $0["in"] == nil && ($0["pointer"] == "" || $0["pointer"]?.hasPrefix("/") == true) }, "\(body)")
        // A query parameter, named or not repeated.
        let named = try errors("GET", "/v1/compliance?x=1")
        #expect(named.count == 1 && named[0]["pointer"] == "x" && named[0]["in"] == "query", "\(named)")
        let unnamed = try errors("GET", "/v1/compliance?jane@example.com=1")
        #expect(unnamed.count == 1 && unnamed[0]["pointer"] == "" && unnamed[0]["in"] == "query", "\(unnamed)")
        // A path parameter, named beside the body's pointers.
        let ref = String(repeating: "r", count: 300)
        let mixed = try errors("PUT", "/v1/authorization/\(ref)", body: #"{"status": "nope"}"#)
        #expect(mixed.contains { $0["pointer"] == "subjectRef" && $0["in"] == "path" }, "\(mixed)")
        #expect(mixed.contains { $0["pointer"] == "/status" && $0["in"] == nil }, "\(mixed)")
        // A header field: one the service refuses, and one the HTTP layer refuses.
        let override = try errors("POST", "/v1/evaluations", headers: [("Trust-Insights-Override-Outcome", "purple")], body: "{}")
        #expect(override.count == 1 && override[0]["pointer"] == "Trust-Insights-Override-Outcome" && override[0]["in"] == "header", "\(override)")
        let media = try errors("POST", "/v1/evaluations", headers: [("Content-Encoding", "gzip")], body: "{}")
        #expect(media.count == 1 && media[0]["pointer"] == "Content-Encoding" && media[0]["in"] == "header", "\(media)")
    }
}
