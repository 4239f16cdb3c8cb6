extension Dataset {
    /// The same rows with columns in the order of `names` (a validation file may list features in another order).
    /// A column missing here or one `names` lacks is an error naming them all.
    public func reordered(toMatch names: [String]) throws(DatasetError) -> Dataset {
        if names == featureNames { return self }
        var position: [String: Int] = [:]
        for (index, name) in featureNames.enumerated() { position[name] = index }
        let missing = names.filter { position[$0] == nil }
        let wanted = Set(names)
        let extra = featureNames.filter { !wanted.contains($0) }
        guard missing.isEmpty, extra.isEmpty else { throw .featuresDiffer(path: source, missing: missing, extra: extra) }
        let columns = names.map { position[$0]! }
        let width = featureCount
        var reordered = [Float](repeating: .nan, count: values.count)
        for row in 0..<rowCount {
            for (target, from) in columns.enumerated() {
                reordered[row * width + target] = values[row * width + from]
            }
        }
        return Dataset(checkedFeatureNames: names, values: reordered, labels: labels, source: source)
    }
}
