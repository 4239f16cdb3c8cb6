import Glibc
@testable import HTTPServer

/// A live server on 127.0.0.1, port 0, with short timeouts unless a test sets others.
struct TestServer {
    let server: HTTPServer
    let log: CollectingLogSink
    let metrics: MetricsRegistry

    var port: Int { server.boundPort }

    static func configuration() -> HTTPServerConfiguration {
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoops = 2
        configuration.requestTimeout = .seconds(5)
        configuration.idleTimeout = .seconds(5)
        configuration.lingerTimeout = .seconds(1)
        configuration.shutdownGracePeriod = .seconds(3)
        return configuration
    }

    static func start(
        _ configuration: HTTPServerConfiguration = configuration(), router: Router = SampleRoutes.router(),
        afterEachPass: (@Sendable () -> Void)? = nil
    ) throws -> TestServer {
        let log = CollectingLogSink()
        let metrics = MetricsRegistry()
        let server = HTTPServer(
            configuration: configuration, router: router, metrics: metrics, logSink: log, afterEachPass: afterEachPass)
        try server.start()
        return TestServer(server: server, log: log, metrics: metrics)
    }

    /// How many connections the named deadline (`request`, `idle`, `write`) has closed, from the metrics an
    /// operator scrapes.
    func timeouts(of deadline: String) -> Int? {
        value(of: "http_connection_timeouts_total{deadline=\"\(deadline)\"}")
    }

    /// How many idle connections were closed to admit a new one at the connection cap.
    var reclaimedIdleConnections: Int? { value(of: "http_idle_connections_reclaimed_total") }

    /// Requests begun and not complete when their client closed the connection.
    var incompleteRequests: Int? { value(of: "http_requests_incomplete_total") }

    /// How many requests were answered 503 because their body did not fit in the body budget.
    var bodyBudgetRefusals: Int? { value(of: "http_body_budget_refusals_total") }

    /// The value of one series (name and labels, as rendered) in the metrics an operator scrapes.
    private func value(of series: String) -> Int? {
        let prefix = series + " "
        let line = metrics.render().split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) }
    }

    func stop() {
        server.beginShutdown()
        _ = server.waitUntilStopped(timeout: .seconds(5))
    }
}

/// Routes shared by the in-memory and live tests.
enum SampleRoutes {
    static func router() -> Router {
        var router = Router()
        router.add(.get, "/") { _, _ in HTTPResponse.text(.ok, "root") }
        // Answers with a strong entity tag, as the service's key set does.
        router.add(.get, "/tagged") { _, _ in HTTPResponse.text(.ok, "tagged", headers: ["ETag": #""v2""#, "Cache-Control": "no-cache"]) }
        router.add(.post, "/echo") { request, _ in HTTPResponse(status: .ok, body: request.body) }
        router.add(.post, "/json", options: RouteOptions(acceptedContentTypes: ["application/json"])) { request, _ in
            HTTPResponse.json(.created, request.body)
        }
        router.add(.post, "/small", options: RouteOptions(bodyLimit: 16)) { request, _ in
            HTTPResponse(status: .ok, body: request.body)
        }
        router.add(.post, "/large", options: RouteOptions(bodyLimit: 1 << 20)) { request, _ in
            HTTPResponse.text(.ok, "\(request.body.count)")
        }
        // Reads its body only for a request whose header section carries `Token: ok`.
        let guarded = RouteOptions(bodyLimit: 1 << 20, checkBeforeBody: { headers in
            headers["Token"] == "ok" ? nil : HTTPError(.unauthorized, slug: "unauthenticated", detail: "send Token: ok")
        })
        router.add(.post, "/guarded", options: guarded) { request, _ in
            HTTPResponse.text(.ok, "\(request.body.count)")
        }
        // Authenticates in its handler, like the service's routes, and names the same check for early answers.
        let checked = RouteOptions(acceptedContentTypes: ["application/json"], checkBeforeEarlyAnswer: { headers in
            headers["Token"] == "ok" ? nil : HTTPError(.unauthorized, slug: "unauthenticated", detail: "send Token: ok")
        })
        router.add(.post, "/checked", options: checked) { request, _ in
            guard request.headers["Token"] == "ok" else { throw HTTPError(.unauthorized, slug: "unauthenticated") }
            return HTTPResponse.json(.created, request.body)
        }
        // Authenticates in its handler, and checks the header section alone only while its body is still to come.
        let awaiting = RouteOptions(checkBeforeAwaitingBody: { headers in
            headers["Token"] == "ok" ? nil : HTTPError(.unauthorized, slug: "unauthenticated", detail: "send Token: ok")
        })
        router.add(.post, "/awaiting", options: awaiting) { request, _ in
            guard request.headers["Token"] == "ok" else { throw HTTPError(.forbidden, slug: "refused-by-handler") }
            return HTTPResponse.text(.ok, "\(request.body.count)")
        }
        router.add(.get, "/records/{recordID}") { _, _ in HTTPResponse.text(.ok, "record") }
        // Refuses a record ID of "bad" and any query before its content, and says so for failed preconditions.
        let refusal: @Sendable (HTTPRequest, [String: String]) -> HTTPError? = { request, parameters in
            parameters["recordID"] == "bad" || request.query != nil ? HTTPError(.badRequest, slug: "invalid-parameter") : nil
        }
        var records = checked
        records.checkBeforeContent = { request, parameters in refusal(request, parameters) }
        router.add(.put, "/records/{recordID}", options: records) { request, context in
            guard request.headers["Token"] == "ok" else { throw HTTPError(.unauthorized, slug: "unauthenticated") }
            if let refused = refusal(request, context.parameters) { throw refused }
            return HTTPResponse.text(.ok, "stored")
        }
        router.add(.get, "/items/{itemID}") { _, context in
            HTTPResponse.text(.ok, context.parameters["itemID"] ?? "")
        }
        router.add(.delete, "/items/{itemID}") { _, _ in HTTPResponse(status: .noContent) }
        router.add(.get, "/slow") { _, _ in
            usleep(300_000)
            return HTTPResponse.text(.ok, "slow")
        }
        router.add(.get, "/fail") { _, _ in
            struct Secret: Error { let value = "do-not-leak" }
            throw Secret()
        }
        router.add(.get, "/teapot") { _, _ in
            throw HTTPError(.conflict, slug: "conflict", detail: "already there")
        }
        router.add(.get, "/big") { _, _ in
            HTTPResponse(status: .ok, body: (0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        }
        return router
    }
}
