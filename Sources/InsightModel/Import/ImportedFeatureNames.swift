/// The feature names an imported model gets, the same way for every source library: the caller's (`--features`),
/// else the file's own, else `prefix0`, `prefix1`, ... A name list of another length than the feature count would
/// silently misname columns, so either list is refused when its length differs, even when the other would be used.
enum ImportedFeatureNames {
    static func resolve(
        given: [String]?, source: [String], featureCount: Int, sourceKey: String, fallbackPrefix: String
    ) throws(ModelImportError) -> [String] {
        guard source.isEmpty || source.count == featureCount else {
            throw .malformed("\(sourceKey) lists \(source.count) names for \(featureCount) features")
        }
        let names: [String]
        if let given {
            guard given.count == featureCount else { throw .featureNamesMismatch(expected: featureCount, given: given.count) }
            names = given
        } else if !source.isEmpty {
            names = source
        } else {
            names = (0..<featureCount).map { "\(fallbackPrefix)\($0)" }
        }
        // Feature CSVs (`models score`, `--evaluate`) read this column as the label: a feature so named could not
        // be scored from one.
        if names.contains(FeatureTable.labelColumn) { throw .reservedFeatureName(FeatureTable.labelColumn) }
        return names
    }
}
