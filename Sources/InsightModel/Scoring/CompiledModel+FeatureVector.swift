extension CompiledModel {
    /// A row in this model's feature order from named values; features the caller does not send are missing
    /// (NaN), names the model does not use are ignored (the domain layer validates names against the catalogue).
    public func row(from features: [String: Double]) -> [Double] {
        featureNames.map { features[$0] ?? .nan }
    }
}
