import HTTPServer
import InsightCore
import JSONStream

/// `/healthz`, `/readyz` and `/metrics`: unauthenticated, for probes and scrapers.
public struct OperationsRoutes: Sendable {
    let readiness: Readiness
    let metrics: MetricsRegistry
    let server: @Sendable () -> HTTPServer?

    public init(readiness: Readiness, metrics: MetricsRegistry, server: @escaping @Sendable () -> HTTPServer?) {
        self.readiness = readiness
        self.metrics = metrics
        self.server = server
    }

    public func register(in router: inout Router) {
        router.add(.get, "/healthz") { _, _ in
            Self.status("alive", status: .ok)
        }
        let readiness = readiness
        let server = server
        router.add(.get, "/readyz") { _, _ in
            let draining = server()?.isDraining ?? false
            let phase = draining ? .draining : readiness.currentPhase
            let storageWritable = readiness.isStorageWritable(now: Clock.nowMilliseconds())
            let ready = phase == .ready && storageWritable
            var writer = JSONWriter(capacity: 96)
            writer.beginObject()
            writer.member("status", ready ? "ready" : "notReady")
            writer.member("phase", "\(phase)")
            writer.member("storageWritable", storageWritable)
            writer.endObject()
            return .json(ready ? .ok : .serviceUnavailable, writer.bytes)
        }
        let metrics = metrics
        router.add(.get, "/metrics") { _, _ in
            var headers = HTTPFields()
            headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            return HTTPResponse(status: .ok, headers: headers, body: Array(metrics.render().utf8))
        }
    }

    private static func status(_ text: String, status: HTTPStatus) -> HTTPResponse {
        var writer = JSONWriter(capacity: 32)
        writer.beginObject()
        writer.member("status", text)
        writer.endObject()
        return .json(status, writer.bytes)
    }
}
