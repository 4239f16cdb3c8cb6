import Glibc

/// Wall-clock formatting without Foundation: ISO 8601 for logs, IMF-fixdate for the Date header.
enum UTCTimestamp {
    static func now() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time
    }

    static func brokenDown(_ seconds: Int) -> tm {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return parts
    }

    /// `2026-11-21T00:39:16.123Z`
    static func iso8601(_ time: timespec = now()) -> String {
        let parts = brokenDown(time.tv_sec)
        let millis = Int(time.tv_nsec / 1_000_000)
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
            + "T\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2))"
            + ".\(pad(millis, 3))Z"
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sat, 21 Nov 2026 00:39:16 GMT` (RFC 9110 §5.6.7)
    static func imfFixdate(_ seconds: Int) -> String {
        let parts = brokenDown(seconds)
        return "\(weekdays[Int(parts.tm_wday)]), \(pad(Int(parts.tm_mday), 2)) \(months[Int(parts.tm_mon)]) "
            + "\(pad(Int(parts.tm_year) + 1900, 4)) \(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):"
            + "\(pad(Int(parts.tm_sec), 2)) GMT"
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
