import Glibc

/// Bounds the access-log lines of refused requests (4xx, and the 501 and 505 that refuse a client's method, transfer
/// coding or HTTP version) that one event loop writes in a second.
///
/// Anyone who can reach the port can send requests the server refuses, and each would otherwise cost a line: a
/// two-minute flood of malformed requests wrote 689 MB of log, and one of unknown methods (`MFOO /x`, answered 501)
/// 52 MB in 4 s (observability probe, 6 December). Answers the server gave (2xx, 3xx) and its own failures (the
/// other 5xx) are always logged; refused ones past the bound are counted, and the count goes out as one summary line
/// when the second is over, so the log still says how many there were and with which statuses.
struct AccessLogThrottle {
    /// Lines of refusals (`isRefusal`) written per second; 0 writes every one.
    let linesPerSecond: Int
    private var second = Int.min
    private var written = 0
    /// Statuses of the lines left out this second, with their counts; a handful of distinct statuses at most.
    private var suppressed: [(status: Int, count: Int)] = []

    init(linesPerSecond: Int) {
        self.linesPerSecond = max(0, linesPerSecond)
    }

    /// A refusal of what the client sent, not a failure of the server's: 501 is the answer to a method (or transfer
    /// coding) nobody implements and 505 to an HTTP version, both what scanners send.
    static func isRefusal(_ status: Int) -> Bool {
        (400...499).contains(status) || status == 501 || status == 505
    }

    /// What is waiting to be summarised; the loop flushes it once the second is over.
    var suppressedCount: Int { suppressed.reduce(0) { $0 + $1.count } }

    /// Whether the line of an answer with `status` is written. A summary of the second before comes first when
    /// the second has turned (`summary(endingBefore:)`); callers flush it before asking.
    mutating func admits(status: Int, wallClockSeconds: Int) -> Bool {
        guard linesPerSecond > 0, Self.isRefusal(status) else { return true }
        if wallClockSeconds != second {
            second = wallClockSeconds
            written = 0
        }
        if written < linesPerSecond {
            written += 1
            return true
        }
        if let index = suppressed.firstIndex(where: { $0.status == status }) {
            suppressed[index].count += 1
        } else {
            suppressed.append((status, 1))
        }
        return false
    }

    /// The lines left out in a second before `wallClockSeconds`, by status, and forgets them; nil when none were.
    mutating func summary(endingBefore wallClockSeconds: Int) -> (second: Int, statuses: [(status: Int, count: Int)])? {
        guard !suppressed.isEmpty, wallClockSeconds != second else { return nil }
        defer { suppressed.removeAll(keepingCapacity: true) }
        return (second, suppressed.sorted { $0.status < $1.status })
    }

    /// Everything still held, whatever the second: for a loop that stops.
    mutating func finalSummary() -> (second: Int, statuses: [(status: Int, count: Int)])? {
        guard !suppressed.isEmpty else { return nil }
        defer { suppressed.removeAll(keepingCapacity: true) }
        return (second, suppressed.sorted { $0.status < $1.status })
    }
}

/// The line that stands for the access-log lines a second's bound left out.
struct SuppressedAccessLogLine {
    var second: Int
    var statuses: [(status: Int, count: Int)]
    /// The bound of the loop that left them out.
    var linesPerSecond: Int

    func render(time: String = UTCTimestamp.iso8601()) -> String {
        let total = statuses.reduce(0) { $0 + $1.count }
        let byStatus = statuses.map { #""\#($0.status)":\#($0.count)"# }.joined(separator: ",")
        return #"{"time":"\#(time)","level":"warning","event":"access log lines suppressed","#
            + #""second":"\#(UTCTimestamp.iso8601(timespec(tv_sec: second, tv_nsec: 0)))","lines":\#(total),"statuses":{\#(byStatus)},"#
            + #""limitPerSecond":\#(linesPerSecond)}"#
    }
}
