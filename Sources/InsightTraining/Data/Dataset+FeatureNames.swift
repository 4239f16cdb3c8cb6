import InsightModel

extension Dataset {
    /// The names a model's features may have: at least one, none empty, none twice, and none `label`, which every
    /// feature CSV (`models score`, `bench`, `import --evaluate`) reads as the label, so a model with such a feature
    /// could never be scored. Positions in errors count the label as column 1, as in the CSV header.
    static func checkFeatureNames(_ names: [String], source: String) throws(DatasetError) {
        guard !names.isEmpty else { throw .noFeatures(path: source) }
        var seen = Set<String>()
        for (index, name) in names.enumerated() {
            let column = index + 2
            guard !name.isEmpty else { throw .emptyFeatureName(path: source, column: column) }
            guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw .controlCharacterInFeatureName(path: source, column: column)
            }
            guard name != FeatureTable.labelColumn else { throw .reservedFeatureName(path: source, column: column) }
            guard seen.insert(name).inserted else {
                let columns = names.indices.filter { names[$0] == name }.map { $0 + 2 }
                throw .duplicateFeatureName(path: source, name: name, columns: columns)
            }
        }
    }
}
