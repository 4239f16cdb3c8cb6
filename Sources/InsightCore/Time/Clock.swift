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
}
