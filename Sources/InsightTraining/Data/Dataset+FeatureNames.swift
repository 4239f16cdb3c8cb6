import InsightModel

extension Dataset {
    /// The names a model's features may have: at least one, none empty, none twice, and none `label`, which every
    /// feature CSV (`models score`, `bench`, `import --evaluate`) reads as the label, so a model with such a feature
    /// could never be scored. Positions in errors count the label as column 1, as in the CSV header.
    static func checkFeatureNames(_ names: [String], source: String) throws(DatasetError) {
        guard !names.isEmpty else { throw .noFeatures(path: source) }
        // Checked column by column with the other rules, so a header with several problems names the first.
        let repetition = CSVHeaderNames.firstRepetition(in: names)
        for (index, name) in names.enumerated() {
            let column = index + 2
            guard !name.isEmpty else { throw .emptyFeatureName(path: source, column: column) }
            guard !FeatureNameText.holdsControlCharacter(name) else {
                throw .controlCharacterInFeatureName(path: source, column: column)
            }
            guard name != FeatureTable.labelColumn else { throw .reservedFeatureName(path: source, column: column) }
            if let repetition, repetition.columns[1] == index + 1 {
                throw .duplicateFeatureName(path: source, name: name, columns: repetition.columns.map { $0 + 1 })
            }
        }
    }
}
