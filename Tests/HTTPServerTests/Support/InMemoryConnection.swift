@testable import HTTPServer

/// A connection session without a socket: bytes in, responses out, clock in the test's hands.
final class InMemoryConnection {
    var session: ConnectionSession
    let log = CollectingLogSink()
    let metrics = MetricsRegistry()
    private(set) var rawOutput: [UInt8] = []

    init(
        configuration: HTTPServerConfiguration = TestServer.configuration(), router: Router = SampleRoutes.router(),
        accessLogIdentity: AccessLogIdentity? = nil
    ) {
        let shared = ServerShared(
            configuration: configuration, router: router, metrics: metrics, logSink: log, accessLogIdentity: accessLogIdentity)
        session = ConnectionSession(services: LoopServices(shared: shared), remoteAddress: "127.0.0.1", now: 0)
    }

    /// Feeds `text` and returns the responses it produced (after any earlier unread output).
    func send(_ text: String, now: UInt64 = 0) -> [ParsedResponse] {
        send(Array(text.utf8), now: now)
    }

    func send(_ bytes: [UInt8], now: UInt64 = 0) -> [ParsedResponse] {
        bytes.withUnsafeBytes { session.receive($0, now: now) }
        return drain()
    }

    /// Runs the handlers' end-of-pass work, as the event loop does after each pass, and releases what it settled.
    func endPass(now: UInt64 = 0) -> [ParsedResponse] {
        session.services.tasks.runAll()
        session.releaseHeld(now: now)
        return drain()
    }

    func drain() -> [ParsedResponse] {
        let bytes = session.output.takeAll()
        rawOutput += bytes
        return ParsedResponse.parseAll(bytes)
    }
}
