/// Per-event-loop helpers that connections of that loop share without locks: request IDs, the Date line,
/// and cached metric series so recording a request does not go through the registry's lock.
final class LoopServices {
    /// The metric series of one route template, so recording a request hashes the template once.
    final class RouteSeries {
        let duration: Histogram
        var counters: [Int: Counter] = [:]
        var simulatedCounters: [Int: Counter] = [:]

        init(duration: Histogram) {
            self.duration = duration
        }
    }

    let shared: ServerShared
    /// Copied out of the configuration once, so the per-request path reads plain values.
    let router: Router
    let defaultBodyLimit: Int
    let accessLog: Bool
    /// `Cache-Control: <default>\r\n`, written once.
    let defaultCacheControlLine: [UInt8]?
    /// Handlers' work for the end of the pass (`LoopTasks`).
    let tasks = LoopTasks()
    var requestIDs: RequestIDGenerator
    var date = DateCache()
    private var accessLogThrottle: AccessLogThrottle
    private var routes: [String: RouteSeries] = [:]

    init(shared: ServerShared) {
        self.shared = shared
        self.router = shared.router
        self.defaultBodyLimit = shared.configuration.defaultBodyLimit
        self.accessLog = shared.configuration.accessLog
        self.requestIDs = RequestIDGenerator(
            refusedMarkers: shared.configuration.requestIDRefusedMarkers,
            refusedLetterAndDigitCount: shared.configuration.requestIDRefusedLetterAndDigitCount)
        let refused = shared.configuration.accessLogRefusedPerSecond
        let loops = max(1, shared.configuration.eventLoops)
        accessLogThrottle = AccessLogThrottle(linesPerSecond: refused <= 0 ? 0 : (refused + loops - 1) / loops)
        // A value that could split the head is dropped, as a handler's would be (ResponseSerializer.isSafe).
        self.defaultCacheControlLine = shared.configuration.defaultCacheControl
            .flatMap { $0.allUTF8(ByteClass.isFieldValue) ? Array("Cache-Control: \($0)\r\n".utf8) : nil }
        date.update(wallClockSeconds: UTCTimestamp.now().tv_sec)
    }

    /// Whether the access-log line of an answer with `status` is written (`AccessLogThrottle`).
    func admitsAccessLogLine(status: Int) -> Bool {
        if accessLogThrottle.admits(status: status, wallClockSeconds: date.second) { return true }
        shared.suppressedAccessLogLines.increment()
        return false
    }

    /// Writes the summary of the lines a second's bound left out once that second is over; `final` writes what is
    /// held whatever the second, for a loop that stops.
    func flushSuppressedAccessLogLines(final: Bool = false) {
        guard accessLogThrottle.suppressedCount > 0,
              let summary = final
                ? accessLogThrottle.finalSummary() : accessLogThrottle.summary(endingBefore: date.second)
        else { return }
        shared.logSink.write(
            line: SuppressedAccessLogLine(
                second: summary.second, statuses: summary.statuses, linesPerSecond: accessLogThrottle.linesPerSecond
            ).render())
    }

    var isDraining: Bool { shared.draining.load(ordering: .relaxed) }

    /// Any token is a valid method: labels stay bounded by folding the unusual ones together.
    private static let methodLabels = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "other", "-"]

    private static func methodIndex(_ method: String) -> Int {
        switch method {
        case "GET": 0
        case "HEAD": 1
        case "POST": 2
        case "PUT": 3
        case "DELETE": 4
        case "OPTIONS": 5
        case "PATCH": 6
        case "-": 8
        default: 7
        }
    }

    func record(route: String, method: String, status: Int, durationNanoseconds: UInt64, simulated: Bool = false) {
        let series: RouteSeries
        if let cached = routes[route] {
            series = cached
        } else {
            series = RouteSeries(
                duration: shared.metrics.histogram(
                    "http_request_duration_seconds", help: "Time from a request's first byte to its response.",
                    labels: ["route": route]))
            routes[route] = series
        }
        let methodIndex = Self.methodIndex(method)
        let key = status << 4 | methodIndex
        if simulated {
            if let counter = series.simulatedCounters[key] {
                counter.increment()
            } else {
                let counter = shared.metrics.counter(
                    "http_simulated_responses_total",
                    help: "Answers a client asked to be simulated (forced errors), by route template, method and status; not in http_requests_total.",
                    labels: ["route": route, "method": Self.methodLabels[methodIndex], "status": String(status)])
                series.simulatedCounters[key] = counter
                counter.increment()
            }
            return
        }
        if let counter = series.counters[key] {
            counter.increment()
        } else {
            let counter = shared.metrics.counter(
                "http_requests_total", help: "Requests answered, by route template, method and status.",
                labels: ["route": route, "method": Self.methodLabels[methodIndex], "status": String(status)])
            series.counters[key] = counter
            counter.increment()
        }
        series.duration.observe(Double(durationNanoseconds) / 1e9)
    }
}
