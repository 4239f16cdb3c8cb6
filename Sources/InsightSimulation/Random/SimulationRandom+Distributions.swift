#if canImport(Glibc)
import Glibc
#endif

/// The distributions the stories draw from. Only IEEE-exact arithmetic plus Glibc's log, exp and sqrt are
/// used, so results are reproducible for a seed.
extension SimulationRandom {
    @inline(__always)
    public mutating func bernoulli(_ probability: Double) -> Bool {
        uniform() < probability
    }

    /// Standard normal by Marsaglia's polar method (no trigonometry).
    public mutating func normal() -> Double {
        while true {
            let u = 2 * uniform() - 1
            let v = 2 * uniform() - 1
            let s = u * u + v * v
            if s > 0, s < 1 {
                return u * sqrt(-2 * log(s) / s)
            }
        }
    }

    /// Log-normal with the given median; `spread` is the standard deviation of the logarithm.
    public mutating func logNormal(median: Double, spread: Double) -> Double {
        median * exp(spread * normal())
    }

    /// A value in (0, 1): the logistic of a normal centred on logit(`centre`).
    public mutating func logitNormal(centre: Double, spread: Double) -> Double {
        let clamped = min(max(centre, 0.001), 0.999)
        let location = log(clamped / (1 - clamped))
        return 1 / (1 + exp(-(location + spread * normal())))
    }

    /// Poisson by Knuth's multiplication method; the means used here are small.
    public mutating func poisson(_ mean: Double) -> Int {
        guard mean > 0 else { return 0 }
        if mean > 30 { return max(0, Int((mean + sqrt(mean) * normal()).rounded())) }
        let limit = exp(-mean)
        var product = uniform()
        var count = 0
        while product > limit {
            product *= uniform()
            count += 1
        }
        return count
    }

    /// Binomial by counting trials; `trials` is small.
    public mutating func binomial(_ trials: Int, _ probability: Double) -> Int {
        var count = 0
        for _ in 0..<max(0, trials) where uniform() < probability { count += 1 }
        return count
    }

    /// An index drawn with the given (not necessarily normalised) weights.
    public mutating func categorical(_ weights: [Double]) -> Int {
        var total = 0.0
        for weight in weights { total += weight }
        var target = uniform() * total
        for (index, weight) in weights.enumerated() {
            target -= weight
            if target < 0 { return index }
        }
        return weights.count - 1
    }
}
