#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock time in milliseconds since the Unix epoch. Domain code takes `now` as a parameter; only the edges
/// (the server, the CLI) read the clock, so tests control time.
public enum Clock {
    public static func nowMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// Milliseconds on a clock that only moves forward, at the rate of real time, suspended time included
    /// (`CLOCK_BOOTTIME`): a step of the wall clock (NTP, a restored snapshot) does not move it. Only differences
    /// between two readings in one process mean anything.
    public static func monotonicMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
