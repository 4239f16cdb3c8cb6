import Synchronization

/// State all event loops share; everything here is immutable or atomic.
final class ServerShared: Sendable {
    let configuration: HTTPServerConfiguration
    let router: Router
    let logSink: any LogSink
    let metrics: MetricsRegistry
    let inFlight: Gauge
    let openConnectionsGauge: Gauge
    let draining = Atomic<Bool>(false)
    let openConnections = Atomic<Int>(0)
    let runningLoops = Atomic<Int>(0)
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
    }

    var deadlineTimeouts: ConnectionDeadlines.Timeouts {
        ConnectionDeadlines.Timeouts(
            request: configuration.requestTimeout.nanoseconds, idle: configuration.idleTimeout.nanoseconds,
            write: configuration.writeTimeout.nanoseconds, linger: configuration.lingerTimeout.nanoseconds)
    }
}
