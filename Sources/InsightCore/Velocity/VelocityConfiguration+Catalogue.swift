/// Checks `velocity.json` against the feature catalogue it feeds. Each file is valid alone; together they could
/// still leave a model's computed feature without a value (a counter deleted, so the model silently sees it
/// missing) or fill it with another quantity than its name says. Errors name the velocity.json path.
extension VelocityConfiguration {
    public func check(against catalogue: FeatureCatalogue) throws(LoadError) {
        // A counter feeds only the feature of exactly its name: one that differs from a feature only in letter case
        // would look like it feeds that feature and feed nothing.
        var featureNames = Set(VelocityFeature.allCases.map(\.rawValue))
        var computedNames = featureNames
        for category in OperationCategory.allCases {
            let categoryCatalogue = catalogue.catalogue(for: category)
            featureNames.formUnion(categoryCatalogue.features.map(\.name))
            computedNames.formUnion(categoryCatalogue.computedFeatures.map(\.name))
        }
        for (index, counter) in counters.enumerated() {
            if !featureNames.contains(counter.name),
               let feature = featureNames.sorted().first(where: { $0.lowercased() == counter.name.lowercased() }) {
                throw LoadError(
                    path: "/counters/\(index)/name",
                    message: "\(counter.name) differs from the feature \(feature) only in letter case: a counter feeds only the feature of exactly its name")
            }
            // Named like a feature the client sends, it would look like it replaces the client's value, and feeds nothing.
            if featureNames.contains(counter.name) && !computedNames.contains(counter.name) {
                throw LoadError(
                    path: "/counters/\(index)/name",
                    message: "\(counter.name) is a feature the client sends, not one a catalogue declares source: computed: a counter feeds only a computed feature of its name")
            }
        }
        for (index, counter) in counters.enumerated() {
            guard let feature = VelocityFeature(rawValue: counter.name) else { continue }
            if counter.kind != feature.counterKind {
                throw LoadError(path: "/counters/\(index)/kind", message: "the counter named \(counter.name) must have kind \(feature.counterKind.rawValue)")
            }
            if counter.windowSeconds != feature.windowSeconds {
                throw LoadError(path: "/counters/\(index)/windowSeconds", message: "the counter named \(counter.name) must have a window of \(feature.windowSeconds) seconds")
            }
        }
        // A rule's name is a reason code beside the model's feature names: the same word, in any letter case, would
        // read as either.
        for category in OperationCategory.allCases {
            let features = Set(catalogue.catalogue(for: category).features.map { $0.name.lowercased() })
            for (index, rule) in rules.enumerated() where features.contains(rule.name.lowercased()) {
                throw LoadError(
                    path: "/rules/\(index)/name",
                    message: "\(rule.name) is (in some letter case) a feature of the \(category.rawValue) catalogue: as a reason code it would read as that feature")
            }
        }
        let names = Set(counters.map(\.name))
        for category in OperationCategory.allCases {
            for feature in catalogue.catalogue(for: category).computedFeatures where !names.contains(feature.name) {
                throw LoadError(
                    path: "/counters",
                    message: "no counter named \(feature.name), which the \(category.rawValue) catalogue declares as computed: its models would always see it missing")
            }
        }
    }
}
