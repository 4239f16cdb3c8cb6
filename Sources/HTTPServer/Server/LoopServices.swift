/// Per-event-loop helpers that connections of that loop share without locks: request IDs, the Date line,
/// and cached metric series so recording a request does not go through the registry's lock.
final class LoopServices {
    struct RequestSeriesKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    let shared: ServerShared
    var requestIDs = RequestIDGenerator()
    var date = DateCache()
    private var requestCounters: [RequestSeriesKey: Counter] = [:]
    private var durations: [String: Histogram] = [:]

    init(shared: ServerShared) {
        self.shared = shared
        date.update(wallClockSeconds: UTCTimestamp.now().tv_sec)
    }

    var isDraining: Bool { shared.draining.load(ordering: .relaxed) }

    private static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"]

    func record(route: String, method: String, status: Int, durationNanoseconds: UInt64) {
        // Any token is a valid method: labels stay bounded by folding the unusual ones together.
        let methodLabel = Self.knownMethods.contains(method) ? method : "other"
        let key = RequestSeriesKey(route: route, method: methodLabel, status: status)
        let counter: Counter
        if let cached = requestCounters[key] {
            counter = cached
        } else {
            counter = shared.metrics.counter(
                "http_requests_total", help: "Requests answered, by route template, method and status.",
                labels: ["route": route, "method": methodLabel, "status": String(status)])
            requestCounters[key] = counter
        }
        counter.increment()
        let histogram: Histogram
        if let cached = durations[route] {
            histogram = cached
        } else {
            histogram = shared.metrics.histogram(
                "http_request_duration_seconds", help: "Time from a request's first byte to its response.",
                labels: ["route": route])
            durations[route] = histogram
        }
        histogram.observe(Double(durationNanoseconds) / 1e9)
    }
}
