import Synchronization

/// State all event loops share; everything here is immutable or atomic.
final class ServerShared: Sendable {
    let configuration: HTTPServerConfiguration
    let router: Router
    let logSink: any LogSink
    let metrics: MetricsRegistry
    let inFlight: Gauge
    let openConnectionsGauge: Gauge
    /// Connections closed because a deadline ran out, by which one: what tells an operator whether clients are
    /// slow to send (request), slow to read (write) or simply done (idle).
    let requestTimeouts: Counter
    let idleTimeouts: Counter
    let writeTimeouts: Counter
    let incompleteRequests: Counter
    /// Idle connections closed to admit a new one at the connection cap: a cap too low for the clients' pools, or
    /// a client holding idle connections open.
    let reclaimedIdleConnections: Counter
    /// Access-log lines of refusals (4xx, 501, 505) left out by `accessLogRefusedPerSecond`.
    let suppressedAccessLogLines: Counter
    /// See `BodyBudget`: bodies over `BodyBudget.largeAbove` reserve from the first, smaller ones from the second.
    let bodyBudget: BodyBudget
    let smallBodyBudget: BodyBudget
    /// Requests answered `503` because their body did not fit in its budget.
    let bodyBudgetRefusals: Counter
    let draining = Atomic<Bool>(false)
    let openConnections = Atomic<Int>(0)
    let runningLoops = Atomic<Int>(0)
    /// See `HTTPServer.connectionsCutOff`.
    let connectionsCutOff = Atomic<Int>(0)
    /// See `HTTPServer.init`.
    let afterEachPass: (@Sendable () -> Void)?
    /// See `HTTPServer.init`.
    let accessLogIdentity: AccessLogIdentity?

    init(
        configuration: HTTPServerConfiguration, router: Router, metrics: MetricsRegistry, logSink: any LogSink,
        afterEachPass: (@Sendable () -> Void)? = nil, accessLogIdentity: AccessLogIdentity? = nil
    ) {
        self.afterEachPass = afterEachPass
        self.accessLogIdentity = accessLogIdentity
        self.configuration = configuration
        self.router = router
        self.logSink = logSink
        self.metrics = metrics
        inFlight = metrics.gauge("http_requests_in_flight", help: "Requests being handled right now.")
        openConnectionsGauge = metrics.gauge("http_open_connections", help: "Open client connections.")
        let timeouts = { (deadline: String) in
            metrics.counter(
                "http_connection_timeouts_total", help: "Connections whose request, idle or write deadline ran out.",
                labels: ["deadline": deadline])
        }
        requestTimeouts = timeouts("request")
        idleTimeouts = timeouts("idle")
        writeTimeouts = timeouts("write")
        // A client that closes or resets in the middle of a request gets no answer and leaves no access-log line:
        // 2,600 such aborts left no trace at all (soak probe, 6 December).
        incompleteRequests = metrics.counter(
            "http_requests_incomplete_total",
            help: "Requests begun and not complete when their client closed or reset the connection: no answer, no access-log line.")
        reclaimedIdleConnections = metrics.counter(
            "http_idle_connections_reclaimed_total",
            help: "Idle connections closed to admit a new connection at the connection cap.")
        bodyBudget = BodyBudget(total: configuration.maxBufferedBodyBytes)
        smallBodyBudget = BodyBudget(total: BodyBudget.smallTotal(besideLarge: configuration.maxBufferedBodyBytes))
        bodyBudgetRefusals = metrics.counter(
            "http_body_budget_refusals_total",
            help: "Requests answered 503 because their body did not fit: over 64 KiB in maxBufferedBodyBytes, 8-64 KiB in an eighth of it.")
        suppressedAccessLogLines = metrics.counter(
            "http_access_log_lines_suppressed_total",
            help: "Access-log lines of refusals (4xx, and 501 or 505 for a method, transfer coding or HTTP version) left out past accessLogRefusedPerSecond; each second's are summarised in one log line.")
    }

    var deadlineTimeouts: ConnectionDeadlines.Timeouts {
        ConnectionDeadlines.Timeouts(
            request: configuration.requestTimeout.nanoseconds, idle: configuration.idleTimeout.nanoseconds,
            write: configuration.writeTimeout.nanoseconds, linger: configuration.lingerTimeout.nanoseconds)
    }
}
