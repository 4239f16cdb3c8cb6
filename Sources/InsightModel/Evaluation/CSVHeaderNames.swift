/// The one rule on a name written twice in a CSV header, shared by `train` (`Dataset.checkFeatureNames`) and the
/// feature table `models score`, `bench` and `import --evaluate` read (`FeatureTable`): it is refused, never
/// resolved to one of its columns. Nothing says which column the writer meant, and taking either one would score
/// (or train) on values that may belong to another feature, without a word.
public enum CSVHeaderNames {
    /// A name the header holds more than once, with every column that holds it.
    public struct Repetition: Sendable, Equatable {
        public let name: String
        /// Positions in the names given, counted from 1 as a spreadsheet or `cut -f` counts them, in order.
        public let columns: [Int]
    }

    /// The name whose second appearance comes first, reading left to right; nil if every name is distinct.
    public static func firstRepetition(in names: [String]) -> Repetition? {
        var seen = Set<String>()
        for name in names where !seen.insert(name).inserted {
            let columns = names.indices.filter { names[$0] == name }.map { $0 + 1 }
            return Repetition(name: name, columns: columns)
        }
        return nil
    }
}
