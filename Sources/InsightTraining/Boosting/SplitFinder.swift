/// Finds the split of largest gain for one node from its histogram, with L2 regularisation λ on leaf weights and
/// a minimum hessian sum per child. Each cut is tried with missing values sent right and sent left, so the
/// default direction is learnt; a node without missing values sends them to its heavier child.
struct SplitFinder {
    let lambda: Double
    let minChildWeight: Double
    let minSplitGain: Double
    let offsets: UnsafePointer<Int>
    let binCounts: UnsafePointer<Int>
    let features: UnsafePointer<Int>
    let featureCount: Int

    /// Gains within this of zero are rounding noise, not structure (XGBoost's kRtEps).
    static let minimumGain = 1e-6

    /// A child's hessian sum must be at least this share of its parent's as well as `minChildWeight`. The right
    /// side's sums are the parent's less the left's, so a cut that sends every row left leaves residues of
    /// rounding (about 1e-14 of the parent's) on the right; with λ and the minimum child weight both 0 such a
    /// "child" was scored G²/H of two residues, won, and got a leaf of ±inf or NaN. Rows' hessians are at least
    /// 1e-16 each, so only a side of rows already fitted to within that, or no rows, falls below this.
    static let minimumHessianShare = 1e-9

    @inline(__always)
    func score(_ gradient: Double, _ hessian: Double) -> Double { gradient * gradient / (hessian + lambda) }

    func best(
        histogram: UnsafePointer<SIMD2<Double>>, gradient: Double, hessian: Double
    ) -> SplitCandidate? {
        guard hessian >= 2 * minChildWeight, hessian > 0 else { return nil }
        let minimumChildHessian = max(minChildWeight, hessian * Self.minimumHessianShare)
        let parentScore = score(gradient, hessian)
        var best: SplitCandidate?
        var bestGain = max(minSplitGain, Self.minimumGain)
        for k in 0..<featureCount {
            let feature = features[k]
            let bins = histogram + offsets[feature]
            let valueBins = binCounts[feature] - 1
            let missing = bins[valueBins]
            let hasMissing = missing.y > 0
            var accumulated = SIMD2<Double>.zero
            // Cut after bin b: bins 0...b left. b == valueBins - 1 leaves no values on the right, which is only a
            // split (present values left, missing right) when there are missing values.
            let lastCut = hasMissing ? valueBins - 1 : valueBins - 2
            if lastCut < 0 { continue }
            for b in 0...lastCut {
                accumulated += bins[b]
                // Missing right.
                var leftG = accumulated.x
                var leftH = accumulated.y
                var rightG = gradient - leftG
                var rightH = hessian - leftH
                if leftH >= minimumChildHessian && rightH >= minimumChildHessian {
                    let gain = score(leftG, leftH) + score(rightG, rightH) - parentScore
                    if gain > bestGain {
                        bestGain = gain
                        best = SplitCandidate(
                            feature: feature, splitBin: b, defaultLeft: false, gain: gain,
                            leftGradient: leftG, leftHessian: leftH, rightGradient: rightG, rightHessian: rightH)
                    }
                }
                // Missing left; pointless on the last cut (nothing would go right).
                guard hasMissing, b < valueBins - 1 else { continue }
                leftG += missing.x
                leftH += missing.y
                rightG = gradient - leftG
                rightH = hessian - leftH
                if leftH >= minimumChildHessian && rightH >= minimumChildHessian {
                    let gain = score(leftG, leftH) + score(rightG, rightH) - parentScore
                    if gain > bestGain {
                        bestGain = gain
                        best = SplitCandidate(
                            feature: feature, splitBin: b, defaultLeft: true, gain: gain,
                            leftGradient: leftG, leftHessian: leftH, rightGradient: rightG, rightHessian: rightH)
                    }
                }
            }
            if var chosen = best, chosen.feature == feature, !hasMissing {
                // No missing value reached this node: send future ones where most of the training weight went.
                chosen.defaultLeft = chosen.leftHessian >= chosen.rightHessian
                best = chosen
            }
        }
        return best
    }
}
