import Foundation
import Testing
@testable import TrustInsightsApp

/// SIGHUP's reload path (`ServiceRuntime.reload`, what the signal handler calls) on a copy of the shipped models.
@Suite(.serialized) struct ModelReloadTests {
    @Test func badManifestIsRefusedAndLoggedWhileTheOldModelsServe() throws {
        let models = NSTemporaryDirectory() + "trust-insights-models-" + UUID().uuidString
        try FileManager.default.copyItem(atPath: LiveService.repositoryRoot + "/models", toPath: models)
        defer { try? FileManager.default.removeItem(atPath: models) }
        let service = try LiveService { $0.modelsDir = models }
        let key = try service.key()
        func evaluate() throws -> SocketClient.Response {
            try service.client().request("POST", "/v1/evaluations", headers: [
                ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
            ], body: Requests.payment())
        }
        #expect(try evaluate().status == 200)
        // The reload series exist from the start, at 0, so an alert on their increase sees the first refusal.
        let before = try service.client().request("GET", "/metrics").text
        #expect(before.contains(#"trust_insights_reloads_total{part="models",result="refused"} 0"#), "\(before)")
        #expect(before.contains(#"trust_insights_reloads_total{part="signingKeys",result="applied"} 0"#))

        // A manifest naming a missing file: refused, logged with the reason, the old snapshot keeps serving.
        let manifestPath = models + "/manifest.json"
        let good = try String(contentsOfFile: manifestPath, encoding: .utf8)
        try good.replacingOccurrences(of: "payment-2026.11.1.json", with: "missing.json").write(toFile: manifestPath, atomically: true, encoding: .utf8)
        service.runtime.reload()
        // The line names the generation still serving (operator probe, 7 December).
        #expect(service.logs.lines.contains { $0.contains("models reload refused") && $0.contains("missing.json") && $0.contains(#""generation":1,"#) })
        #expect(service.runtime.models.generation == 1)
        #expect(try evaluate().status == 200)

        // A valid manifest with a new candidate version swaps in atomically.
        let candidate = try String(contentsOfFile: models + "/payment-2026.11.1.json", encoding: .utf8)
            .replacingOccurrences(of: "\"version\" : \"2026.11.1\"", with: "\"version\" : \"2026.12.1\"")
            .replacingOccurrences(of: "\"version\":\"2026.11.1\"", with: "\"version\":\"2026.12.1\"")
        try candidate.write(toFile: models + "/payment-2026.12.1.json", atomically: true, encoding: .utf8)
        let withCandidate = good.replacingOccurrences(
            of: "\"models\": [",
            with: "\"models\": [\n    {\"insightType\": \"isLikelyBeingCoached\", \"category\": \"payment\", \"version\": \"2026.12.1\", \"status\": \"candidate\", \"path\": \"payment-2026.12.1.json\"},")
        try withCandidate.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        service.runtime.reload()
        #expect(service.runtime.models.generation == 2)
        #expect(service.logs.lines.contains { $0.contains("\"models reloaded\"") && $0.contains("\"modelsLoaded\":") && $0.contains("\"modelsRefused\":0") })
        let metrics = try service.client().request("GET", "/metrics").text
        #expect(metrics.contains(#"trust_insights_reloads_total{part="models",result="refused"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"trust_insights_reloads_total{part="models",result="applied"} 1"#))
        let response = try service.client().request("POST", "/v1/evaluations", headers: [
            ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
        ], body: Requests.payment(insights: #"{"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": {"specific": "2026.12.1"}}"#))
        #expect(response.status == 200)
        #expect(response.text.contains("\"modelVersion\":\"2026.12.1\""))
        #expect(response.text.contains("\"isUsingCurrentModel\":false"))

        // Each reload's line says what changed: a candidate added, a promotion, and a reload that changed nothing
        // logged the same line but for the generation (operations probe, 7 December).
        func lastReloadLine() -> String { service.logs.lines.last { $0.contains("\"models reloaded\"") } ?? "" }
        #expect(lastReloadLine().contains(#""changes":"payment isLikelyBeingCoached 2026.12.1: added as candidate""#), "\(lastReloadLine())")
        let promoted = withCandidate
            .replacingOccurrences(
                of: "\"status\": \"current\",\n      \"path\": \"payment-2026.11.1.json\"",
                with: "\"status\": \"prior\",\n      \"path\": \"payment-2026.11.1.json\"")
            .replacingOccurrences(of: "\"status\": \"candidate\"", with: "\"status\": \"current\"")
        #expect(promoted.contains("\"status\": \"prior\",\n      \"path\": \"payment-2026.11.1.json\""))
        try promoted.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        service.runtime.reload()
        #expect(lastReloadLine().contains("payment isLikelyBeingCoached 2026.12.1: candidate -> current"), "\(lastReloadLine())")
        #expect(lastReloadLine().contains("payment isLikelyBeingCoached 2026.11.1: current -> prior"), "\(lastReloadLine())")
        service.runtime.reload()
        #expect(lastReloadLine().contains(#""changes":"none""#), "\(lastReloadLine())")
        #expect(service.logs.lines.last { $0.contains("signing keys reloaded") }?.contains(#""keysChanged":false"#) == true)
    }
}
