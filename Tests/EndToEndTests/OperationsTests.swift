import Foundation
import Testing
@testable import TrustInsightsApp

@Suite(.serialized) struct OperationsTests {
    @Test func healthReadinessAndMetricsAnswerAsOperatorsExpect() throws {
        let service = try LiveService()
        let client = try service.client()
        let health = try client.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.header("X-Request-ID") != nil)
        let ready = try client.request("GET", "/readyz")
        #expect(ready.status == 200)
        #expect(ready.text.contains("\"storageWritable\":true"))
        let echoed = try client.request("GET", "/healthz", headers: [("X-Request-ID", "ops-check-1")])
        #expect(echoed.header("X-Request-ID") == "ops-check-1")

        let metrics = try client.request("GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(metrics.text.contains("http_requests_total{"))
        #expect(metrics.text.contains("route=\"/healthz\""))
        #expect(metrics.text.contains("http_request_duration_seconds_bucket"))
        #expect(metrics.text.contains("trust_insights_model_generation 1"))
        // The readiness probe above committed a write through the store's writer.
        func value(_ name: String) -> Double? {
            metrics.text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
        }
        #expect((value("trust_insights_store_writes_total") ?? 0) >= 1)
        #expect((value("trust_insights_store_batches_total") ?? 0) >= 1)
        #expect(value("trust_insights_store_checkpoint_catchups_total") != nil)

        // Draining (as on SIGTERM) and starting both answer 503, so load balancers stop sending traffic.
        service.runtime.readiness.set(.draining)
        let draining = try client.request("GET", "/readyz")
        #expect(draining.status == 503)
        #expect(draining.text.contains("\"phase\":\"draining\""))
        service.runtime.readiness.set(.starting)
        #expect(try client.request("GET", "/readyz").status == 503)
        service.runtime.readiness.set(.ready)
        #expect(try client.request("GET", "/readyz").status == 200)

        // The access log has one JSON line per request with the route template, never a query value.
        _ = try client.request("GET", "/healthz?secret=q-value-77")
        let lines = service.logs.lines.filter { $0.contains("\"event\":\"request\"") }
        #expect(lines.contains { $0.contains("\"route\":\"/readyz\"") && $0.contains("\"status\":503") })
        #expect(!service.logs.lines.contains { $0.contains("q-value-77") })
    }
}
