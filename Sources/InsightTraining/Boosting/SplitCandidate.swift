/// The best way found to split one node.
struct SplitCandidate: Sendable {
    var feature: Int
    /// Value bins 0...splitBin go left (none at -1).
    var splitBin: Int
    var defaultLeft: Bool
    var gain: Double
    var leftGradient: Double
    var leftHessian: Double
    var rightGradient: Double
    var rightHessian: Double
}

extension SplitCandidate {
    /// The same partition with its sides swapped, for a split of every value bin from the missing bin: no value
    /// bin goes left (`splitBin` -1), the missing values do.
    func sendingMissingLeft() -> SplitCandidate {
        SplitCandidate(
            feature: feature, splitBin: -1, defaultLeft: !defaultLeft, gain: gain,
            leftGradient: rightGradient, leftHessian: rightHessian, rightGradient: leftGradient, rightHessian: leftHessian)
    }
}
