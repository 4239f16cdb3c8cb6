import FoundationEssentials

/// The feature names an imported model gets, the same way for every source library: the caller's (`--features`),
/// else the file's own, else `prefix0`, `prefix1`, ... A name list of another length than the feature count would
/// silently misname columns, so either list is refused when its length differs, even when the other would be used;
/// so is a given list that puts one of the file's names at another column.
public enum ImportedFeatureNames {
    static func resolve(
        given: [String]?, source: [String], featureCount: Int, sourceKey: String, fallbackPrefix: String
    ) throws(ModelImportError) -> [String] {
        guard source.isEmpty || source.count == featureCount else {
            throw .malformed("\(sourceKey) lists \(source.count) names for \(featureCount) features")
        }
        let names: [String]
        if let given {
            guard given.count == featureCount else { throw .featureNamesMismatch(expected: featureCount, given: given.count) }
            // Renaming a column is what `--features` is for (pandas names to catalogue names, LightGBM's `Column_0`);
            // giving one of the file's names to another column is a list in the wrong order, and the model would read
            // that feature from the wrong column without a word.
            if !source.isEmpty {
                let sourcePositions = Dictionary(source.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
                for (position, name) in given.enumerated() {
                    if let sourcePosition = sourcePositions[name], sourcePosition != position {
                        throw .featureNameMoved(name: name, givenPosition: position, sourcePosition: sourcePosition)
                    }
                }
            }
            names = given
        } else if !source.isEmpty {
            names = source
        } else {
            names = (0..<featureCount).map { "\(fallbackPrefix)\($0)" }
        }
        // Feature CSVs (`models score`, `--evaluate`) read this column as the label: a feature so named could not
        // be scored from one.
        if names.contains(FeatureTable.labelColumn) { throw .reservedFeatureName(FeatureTable.labelColumn, inGivenNames: given != nil) }
        if let feature = names.firstIndex(where: FeatureNameText.holdsControlCharacter) {
            throw .controlCharacterInFeatureName(feature: feature, inGivenNames: given != nil)
        }
        return names
    }

    /// The file's own names, recorded in the model's provenance when `--features` renamed any of them, so that the
    /// model says which source column each of its features came from.
    public static let sourceNamesParameter = "feature_names_in_source"

    static func renamedSource(given: [String]?, source: [String]) -> [String: String] {
        guard let given, !source.isEmpty, given != source,
              let list = try? JSONEncoder().encode(source) else { return [:] }
        // A JSON array: a source name may hold a comma or a space.
        return [sourceNamesParameter: String(decoding: list, as: UTF8.self)]
    }
}
