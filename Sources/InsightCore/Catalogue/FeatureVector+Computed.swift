/// Filling in the features the service computes (velocity) after the client's features were validated.
extension FeatureVector {
    /// Errors when the service supplies a computed feature; they name the feature, never the value.
    public enum ComputedFeatureError: Error, Sendable, Hashable {
        case unknownFeature(String)
        /// The name belongs to a client-sent feature.
        case notComputed(String)
        case invalidValue(String)
    }

    /// A copy with the given computed features set. Values must be finite, non-negative and within range.
    public func setting(computed values: [(name: String, value: Double)], in catalogue: CategoryCatalogue) throws(ComputedFeatureError) -> FeatureVector {
        var copy = self
        for (name, value) in values {
            try copy.setComputed(name, to: value, in: catalogue)
        }
        return copy
    }

    /// Sets one computed feature in place.
    public mutating func setComputed(_ name: String, to value: Double, in catalogue: CategoryCatalogue) throws(ComputedFeatureError) {
        guard let index = layout.index(of: name) else { throw .unknownFeature(name) }
        let definition = catalogue.features[index]
        guard definition.source == .computed else { throw .notComputed(name) }
        guard value.isFinite, value >= definition.minimum, value <= definition.maximum,
            definition.type != .count || value == value.rounded()
        else { throw .invalidValue(name) }
        storage[index] = value
    }

    /// Sets a computed feature by its index without checks, for a velocity engine that resolved indices once.
    @inlinable
    public mutating func setComputed(at index: Int, to value: Double) {
        storage[index] = value
    }
}
