import Glibc

enum MonotonicClock {
    /// Nanoseconds since an arbitrary point; only differences mean anything.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
