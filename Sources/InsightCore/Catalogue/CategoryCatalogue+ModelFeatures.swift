/// Binding a model's declared feature list to this catalogue: the registry refuses a model that names a
/// feature the catalogue does not have, and the scorer reads the vector through the resolved indices.
extension CategoryCatalogue {
    /// The model names features this catalogue does not declare.
    public struct UnknownModelFeatures: Error, Sendable, Hashable, CustomStringConvertible {
        public var names: [String]
        public var description: String { "features not in the catalogue: \(names.joined(separator: ", "))" }
    }

    /// The vector index of each name, in the model's order.
    public func indices(forModelFeatures names: [String]) throws(UnknownModelFeatures) -> [Int] {
        var indices: [Int] = []
        indices.reserveCapacity(names.count)
        var unknown: [String] = []
        for name in names {
            if let index = layout.index(of: name) { indices.append(index) } else { unknown.append(name) }
        }
        if !unknown.isEmpty { throw UnknownModelFeatures(names: unknown) }
        return indices
    }

    /// The index of each velocity feature this catalogue declares as computed (nil when it does not).
    public func index(of velocity: VelocityFeature) -> Int? {
        guard let index = layout.index(of: velocity.rawValue), features[index].source == .computed else { return nil }
        return index
    }
}
