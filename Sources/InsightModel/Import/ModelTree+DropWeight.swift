extension ModelTree {
    /// The tree with each leaf multiplied by a DART tree weight, in float32 as XGBoost multiplies a tree's output
    /// (the leaves are float32 values, so the product rounds once, to float32, as there).
    func scalingLeaves(by weight: Float) -> ModelTree {
        var scaled = self
        for node in leafValues.indices where leftChildren[node] == -1 {
            scaled.leafValues[node] = Double(Float(leafValues[node]) * weight)
        }
        return scaled
    }
}
