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
    }

    var deadlineTimeouts: ConnectionDeadlines.Timeouts {
        ConnectionDeadlines.Timeouts(
            request: configuration.requestTimeout.nanoseconds, idle: configuration.idleTimeout.nanoseconds,
            write: configuration.writeTimeout.nanoseconds, linger: configuration.lingerTimeout.nanoseconds)
    }
}
