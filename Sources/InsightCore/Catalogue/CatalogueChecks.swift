/// Checks a list of feature definitions for the mistakes a hand-edited catalogue can contain.
enum CatalogueChecks {
    static func check(features: [FeatureDefinition], file: String) throws(CatalogueError) {
        if features.isEmpty { throw .invalid(file: file, pointer: "/features", problem: .noFeatures) }
        var seen = Set<String>()
        for (index, feature) in features.enumerated() {
            let base = "/features/\(index)"
            func fail(_ field: String, _ problem: CatalogueProblem) -> CatalogueError {
                .invalid(file: file, pointer: field.isEmpty ? base : base + "/" + field, problem: problem)
            }
            guard isLowerCamelCase(feature.name) else { throw fail("name", .invalidName(feature.name)) }
            guard seen.insert(feature.name).inserted else { throw fail("name", .duplicateName(feature.name)) }
            // Each bound's fault at its own pointer: a bad `max` was reported at `/min` (configuration probe, 7 December).
            guard feature.minimum.isFinite else { throw fail("min", .nonFiniteBound) }
            guard feature.maximum.isFinite else { throw fail("max", .nonFiniteBound) }
            guard feature.minimum <= feature.maximum else { throw fail("min", .minimumGreaterThanMaximum) }
            if feature.type != .band, !feature.bands.isEmpty { throw fail("bands", .bandsOnNonBandFeature) }
            switch feature.type {
            case .number:
                break
            case .count:
                guard feature.minimum >= 0, feature.minimum == feature.minimum.rounded() else { throw fail("min", .invalidCountBounds) }
                guard feature.maximum == feature.maximum.rounded() else { throw fail("max", .invalidCountBounds) }
            case .flag:
                guard feature.minimum == 0, feature.maximum == 1 else { throw fail("min", .boundsNotAllowed(.flag)) }
            case .band:
                guard !feature.bands.isEmpty else { throw fail("bands", .emptyBandList) }
                var codes = Set<Int>()
                for (bandIndex, band) in feature.bands.enumerated() where !codes.insert(band.code).inserted {
                    throw fail("bands/\(bandIndex)/code", .duplicateBandCode(band.code))
                }
            }
            if feature.source == .computed, feature.type != .count, feature.type != .number {
                throw fail("type", .computedFeatureMustBeNumeric)
            }
        }
    }

    /// Starts with a lowercase ASCII letter, then ASCII letters and digits only.
    static func isLowerCamelCase(_ name: String) -> Bool {
        var iterator = name.utf8.makeIterator()
        guard let first = iterator.next(), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
        while let byte = iterator.next() {
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            guard isLetter || isDigit else { return false }
        }
        return true
    }
}
