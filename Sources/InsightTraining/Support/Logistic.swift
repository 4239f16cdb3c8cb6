#if canImport(Glibc)
import Glibc
#endif

/// The logistic link, in one place so that training-time metrics and thresholds use the same arithmetic.
enum Logistic {
    /// 1 / (1 + exp(-m)) in double from a float32 margin.
    @inline(__always)
    static func probability(margin: Float) -> Double { 1 / (1 + exp(-Double(margin))) }

    static func logit(_ p: Double) -> Double { log(p / (1 - p)) }
}
