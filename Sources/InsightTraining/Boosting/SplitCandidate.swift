/// The best way found to split one node.
struct SplitCandidate: Sendable {
    var feature: Int
    /// Value bins 0...splitBin go left.
    var splitBin: Int
    var defaultLeft: Bool
    var gain: Double
    var leftGradient: Double
    var leftHessian: Double
    var rightGradient: Double
    var rightHessian: Double
}
