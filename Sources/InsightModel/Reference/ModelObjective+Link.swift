import Glibc

extension ModelObjective {
    /// Probability from a margin: the logistic function in double.
    public func probability(margin: Double) -> Double {
        1 / (1 + exp(-margin))
    }

    /// Probability from a margin whose log-odds are `sigmoidScale` times it, computed as LightGBM's binary objective
    /// does (`1 / (1 + exp(-sigmoid * raw))`, in double; negating the product or the factor is the same number).
    public func probability(margin: Double, sigmoidScale: Double?) -> Double {
        guard let scale = sigmoidScale else { return probability(margin: margin) }
        return 1 / (1 + exp(-(scale * margin)))
    }
}

extension ModelDocument {
    /// The probability this model gives a margin: every caller that turns a margin into a probability goes through
    /// here, so that `sigmoidScale` cannot be forgotten.
    public func probability(margin: Double) -> Double {
        objective.probability(margin: margin, sigmoidScale: sigmoidScale)
    }
}
