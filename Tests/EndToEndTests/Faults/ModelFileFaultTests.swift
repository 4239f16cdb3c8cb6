import Foundation
import Testing
@testable import TrustInsightsApp

/// A model file that is corrupt or missing, at start and at reload (what SIGHUP runs). At start the service
/// serves every model that loads and answers `insightUnavailable` (no model left for the category) or
/// `insightVersionUnavailable` (other versions left) for the rest; a reload is all or nothing, so
/// a bad file at reload leaves the models in service untouched. Every refusal is logged with the file and why.
@Suite(.serialized) struct ModelFileFaultTests {
    /// A private copy of the shipped models, so a test can break and mend files.
    final class ModelsCopy {
        let path = NSTemporaryDirectory() + "trust-insights-models-" + UUID().uuidString

        init() throws {
            try FileManager.default.copyItem(atPath: LiveService.repositoryRoot + "/models", toPath: path)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        func corrupt(_ name: String) throws {
            let file = path + "/" + name
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: file))
        }

        func remove(_ name: String) throws { try FileManager.default.removeItem(atPath: path + "/" + name) }

        func restore(_ name: String) throws {
            try? FileManager.default.removeItem(atPath: path + "/" + name)
            try FileManager.default.copyItem(atPath: LiveService.repositoryRoot + "/models/" + name, toPath: path + "/" + name)
        }
    }

    static let bothPaymentVersions = #"{"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": "current"}, {"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": {"specific": "2026.09.1"}}"#

    /// The outcome of each requested insight: a level, or the insight-level error.
    func outcomes(_ service: LiveService, key: String, body: [UInt8]) throws -> [String] {
        let response = try service.client().request("POST", "/v1/evaluations", headers: [
            ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
        ], body: body)
        #expect(response.status == 200)
        let insights = try jsonObject(response)["insights"] as? [[String: Any]] ?? []
        return insights.compactMap { insight in
            let outcome = insight["outcome"] as? [String: String]
            return outcome?["value"] ?? outcome?["error"]
        }
    }

    static let accountRequest = Array("""
        {"operationCategory": "account", "requestedInsights": [{"insightType": "isLikelyBeingCoached", "schema": "version1"}],
         "subject": {"accountRef": "acct-1", "deviceRef": "dev-1"},
         "features": {"activeCall": 0, "screenSharingActive": 0, "sessionDurationSeconds": 40, "timeOfDayBand": 1, "changeKindBand": 1}}
        """.utf8)

    @Test func corruptModelAtStartLeavesTheOthersServingUntilAReloadMendsIt() throws {
        let models = try ModelsCopy()
        try models.corrupt("payment-2026.11.1.json")
        let service = try LiveService { $0.modelsDir = models.path }
        let key = try service.key()
        #expect(service.logs.lines.contains { $0.contains("model refused") && $0.contains("payment-2026.11.1.json") })
        #expect(try service.client().request("GET", "/readyz").status == 200)
        let metrics = try service.client().request("GET", "/metrics")
        #expect(metrics.text.contains("trust_insights_models_refused 1"))

        // The broken current version is unavailable; the prior version of the same category still scores.
        let payment = try outcomes(service, key: key, body: Requests.payment(insights: Self.bothPaymentVersions))
        #expect(payment.first == "insightVersionUnavailable")
        #expect(["unknown", "medium", "high"].contains(payment.last ?? ""))

        try models.restore("payment-2026.11.1.json")
        service.runtime.reload()
        #expect(service.runtime.models.generation == 2)
        let mended = try outcomes(service, key: key, body: Requests.payment(insights: Self.bothPaymentVersions))
        #expect(mended.allSatisfy { ["unknown", "medium", "high"].contains($0) })
        #expect(try service.client().request("GET", "/metrics").text.contains("trust_insights_models_refused 0"))
    }

    @Test func missingModelAtStartMakesOnlyItsCategoryUnavailable() throws {
        let models = try ModelsCopy()
        try models.remove("account-2026.11.1.json")
        let service = try LiveService { $0.modelsDir = models.path }
        let key = try service.key()
        #expect(service.logs.lines.contains { $0.contains("model refused") && $0.contains("account-2026.11.1.json") })
        #expect(try outcomes(service, key: key, body: Self.accountRequest) == ["insightUnavailable"])
        #expect(try outcomes(service, key: key, body: Requests.payment()).count == 2)
    }

    @Test func corruptOrMissingModelAtReloadKeepsTheModelsInService() throws {
        let models = try ModelsCopy()
        let service = try LiveService { $0.modelsDir = models.path }
        let key = try service.key()
        let before = try outcomes(service, key: key, body: Requests.payment(insights: Self.bothPaymentVersions))

        try models.corrupt("payment-2026.11.1.json")
        service.runtime.reload()
        #expect(service.logs.lines.contains { $0.contains("models reload refused") && $0.contains("payment-2026.11.1.json") })
        #expect(service.runtime.models.generation == 1)
        #expect(try outcomes(service, key: key, body: Requests.payment(insights: Self.bothPaymentVersions)) == before)

        try models.remove("payment-2026.11.1.json")
        service.runtime.reload()
        #expect(service.runtime.models.generation == 1)
        #expect(try outcomes(service, key: key, body: Requests.payment(insights: Self.bothPaymentVersions)) == before)

        try models.restore("payment-2026.11.1.json")
        service.runtime.reload()
        #expect(service.runtime.models.generation == 2)
    }
}
