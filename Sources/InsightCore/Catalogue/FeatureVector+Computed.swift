/// Filling in the features the service computes (velocity) after the client's features were validated.
extension FeatureVector {
    /// Errors when the service supplies a computed feature; they name the feature, never the value.
    public enum ComputedFeatureError: Error, Sendable, Hashable {
        case unknownFeature(String)
        /// The name belongs to a client-sent feature.
        case notComputed(String)
        /// Not finite, out of the declared range, or fractional for a count.
        case invalidValue(String)
    }

    /// A copy with the given computed features set; each value is checked against the catalogue's range.
    public func setting(computed values: [(name: String, value: Double)]) throws(ComputedFeatureError) -> FeatureVector {
        var copy = self
        for (name, value) in values {
            try copy.setComputed(name, to: value)
        }
        return copy
    }

    /// Sets one computed feature in place, checked against the catalogue's range.
    public mutating func setComputed(_ name: String, to value: Double) throws(ComputedFeatureError) {
        guard let index = layout.index(of: name) else { throw .unknownFeature(name) }
        let rule = layout.rules[index]
        guard rule.isComputed else { throw .notComputed(name) }
        guard value.isFinite, value >= rule.minimum, value <= rule.maximum,
            rule.type != .count || value == value.rounded()
        else { throw .invalidValue(name) }
        storage[index] = value
    }

    /// Sets a computed feature by index without checks, for a velocity engine that resolved its indices once
    /// (`CategoryCatalogue.index(of: VelocityFeature)`) and produces only non-negative integer counts.
    @inlinable
    public mutating func setComputed(at index: Int, to value: Double) {
        storage[index] = value
    }
}
