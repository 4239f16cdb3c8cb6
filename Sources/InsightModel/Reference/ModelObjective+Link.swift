import Glibc

extension ModelObjective {
    /// Probability from a margin: the logistic function in double.
    public func probability(margin: Double) -> Double {
        1 / (1 + exp(-margin))
    }
}
