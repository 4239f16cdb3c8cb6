extension Dataset {
    /// The same rows with columns in the order of `names` (a validation file may list features in another order).
    public func reordered(toMatch names: [String]) throws(DatasetError) -> Dataset {
        if names == featureNames { return self }
        guard names.count == featureNames.count else { throw .featuresDiffer }
        var position: [String: Int] = [:]
        for (index, name) in featureNames.enumerated() { position[name] = index }
        var source: [Int] = []
        for name in names {
            guard let index = position[name] else { throw .featuresDiffer }
            source.append(index)
        }
        let width = featureCount
        var reordered = [Float](repeating: .nan, count: values.count)
        for row in 0..<rowCount {
            for (target, from) in source.enumerated() {
                reordered[row * width + target] = values[row * width + from]
            }
        }
        return Dataset(checkedFeatureNames: names, values: reordered, labels: labels)
    }
}
