import Testing

@testable import HTTPServer

/// Refused requests (4xx) past `accessLogRefusedPerSecond` are counted instead of logged one line each, so a flood
/// from anyone who can reach the port cannot fill the disk; the count goes out as one line once the second is over.
@Suite struct AccessLogThrottleTests {
    @Test func boundsOnlyRefusedAnswersAndCountsTheRestByStatus() {
        var throttle = AccessLogThrottle(linesPerSecond: 2)
        let admitted = [404, 200, 400, 401, 404, 500, 204, 404].map { throttle.admits(status: $0, wallClockSeconds: 10) }
        #expect(admitted == [true, true, true, false, false, true, true, false])
        #expect(throttle.suppressedCount == 3)
        let early = throttle.summary(endingBefore: 10)
        #expect(early == nil, "the second is not over")
        let summary = throttle.summary(endingBefore: 11)
        #expect(summary?.second == 10)
        #expect(summary?.statuses.map(\.status) == [401, 404])
        #expect(summary?.statuses.map(\.count) == [1, 2])
        let again = throttle.summary(endingBefore: 12)
        #expect(again == nil, "a summary is written once")

        // A new second has its own allowance.
        let next = (0..<3).map { _ in throttle.admits(status: 429, wallClockSeconds: 11) }
        #expect(next == [true, true, false])
        let final = throttle.finalSummary()
        #expect(final?.statuses.map(\.count) == [1], "a stopping loop writes what it holds")
    }

    /// 501 and 505 refuse what the client sent (a method nobody implements, an HTTP version): a flood of
    /// `MFOO /x` wrote 52 MB of log in 4 s, one line each (observability probe, 6 December). Other 5xx are the
    /// server's own failures and always logged.
    @Test func boundsTheRefusalsOfMethodsAndVersionsToo() {
        var throttle = AccessLogThrottle(linesPerSecond: 1)
        let admitted = [501, 501, 505, 500, 503, 502, 504].map { throttle.admits(status: $0, wallClockSeconds: 5) }
        #expect(admitted == [true, false, false, true, true, true, true])
        #expect(throttle.summary(endingBefore: 6)?.statuses.map(\.status) == [501, 505])
    }

    @Test func zeroLogsEveryLine() {
        var throttle = AccessLogThrottle(linesPerSecond: 0)
        let admitted = (0..<1000).map { _ in throttle.admits(status: 400, wallClockSeconds: 1) }
        #expect(admitted.allSatisfy { $0 })
        #expect(throttle.suppressedCount == 0)
    }

    @Test func aFloodOfRefusedRequestsWritesItsShareAndOneSummaryLine() throws {
        var configuration = TestServer.configuration()
        configuration.eventLoops = 2
        configuration.accessLogRefusedPerSecond = 3  // 2 for each of the two loops, rounded up
        let connection = InMemoryConnection(configuration: configuration)
        let services = connection.session.services
        services.date.update(wallClockSeconds: 1_800_000_000)
        let flood = String(repeating: "GET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n", count: 10)
        let responses = connection.send(flood + "GET /items/1 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(responses.map(\.status) == Array(repeating: 404, count: 10) + [200], "every request is answered")

        var lines = connection.log.lines
        #expect(lines.filter { $0.contains(#""status":404"#) }.count == 2)
        #expect(lines.filter { $0.contains(#""status":200"#) }.count == 1, "answers given are always logged")
        #expect(connection.metrics.render().contains("http_access_log_lines_suppressed_total 8"))

        services.flushSuppressedAccessLogLines()
        #expect(connection.log.lines.count == lines.count, "no summary before the second is over")
        services.date.update(wallClockSeconds: 1_800_000_001)
        services.flushSuppressedAccessLogLines()
        lines = connection.log.lines
        let summary = try #require(lines.last)
        #expect(summary.contains(#""event":"access log lines suppressed""#))
        #expect(summary.contains(#""level":"warning""#))
        #expect(summary.contains(#""second":"2027-01-15T08:00:00.000Z""#))
        #expect(summary.contains(#""lines":8,"statuses":{"404":8},"limitPerSecond":2"#))

        // The next second logs refused requests again.
        _ = connection.send("GET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(connection.log.lines.last?.contains(#""status":404"#) == true)
    }
}
