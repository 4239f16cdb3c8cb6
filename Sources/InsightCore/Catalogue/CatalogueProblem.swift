/// What is wrong with a catalogue document itself (not with a request).
public enum CatalogueProblem: Sendable, Hashable, CustomStringConvertible {
    case missingField(String)
    case unknownField(String)
    case unknownType(String)
    case unknownSource(String)
    case unknownSubjectRef(String)
    case unknownCategory(String)
    /// The document's category differs from the one its file name promises.
    case categoryMismatch(expected: OperationCategory, found: String)
    case unsupportedSchemaVersion(Int)
    case invalidName(String)
    case invalidVersion(String)
    case duplicateName(String)
    case minimumGreaterThanMaximum
    case nonFiniteBound
    /// A count must have integer bounds with a minimum of at least 0.
    case invalidCountBounds
    /// Flags and bands must not declare min/max; bands take their range from the codes.
    case boundsNotAllowed(FeatureType)
    case emptyBandList
    case duplicateBandCode(Int)
    case bandsOnNonBandFeature
    case computedFeatureMustBeNumeric
    case subjectRefBothRequiredAndOptional(String)
    case duplicateSubjectRef(String)
    /// Computed (velocity) features are counted per account: a category whose requests never carry an accountRef
    /// would always give its models these features missing.
    case computedFeatureWithoutAccount(String)
    /// More client features than a request may send: some could never be given, and all required ones never at once.
    case tooManyClientFeatures(Int, limit: Int)
    case noFeatures

    public var description: String {
        switch self {
        case .missingField(let name): "missing field '\(name)'"
        case .unknownField(let name): "unknown field '\(name)'"
        case .unknownType(let name): "unknown feature type '\(name)' (expected number, count, flag or band)"
        case .unknownSource(let name): "unknown source '\(name)' (expected client or computed)"
        case .unknownSubjectRef(let name): "unknown subject ref '\(name)'"
        case .unknownCategory(let name): "unknown operation category '\(name)'"
        case .categoryMismatch(let expected, let found): "category '\(found)' does not match the file (expected '\(expected.rawValue)')"
        case .unsupportedSchemaVersion(let version): "unsupported schemaVersion \(version) (expected 1)"
        case .invalidName(let name): "feature name '\(name)' is not lowerCamelCase ASCII"
        case .invalidVersion: "version must be 1 to \(CatalogueDocumentReader.maximumVersionLength) characters of ASCII letters, digits, '.', '_' or '-' (like 2026.11.1)"
        case .duplicateName(let name): "feature name '\(name)' is declared more than once"
        case .minimumGreaterThanMaximum: "min is greater than max"
        case .nonFiniteBound: "min and max must be finite"
        case .invalidCountBounds: "a count needs integer bounds with min >= 0"
        case .boundsNotAllowed(let type): "a \(type.rawValue) feature must not declare min or max"
        case .emptyBandList: "a band feature needs at least one band"
        case .duplicateBandCode(let code): "band code \(code) is declared more than once"
        case .bandsOnNonBandFeature: "only band features may declare bands"
        case .computedFeatureMustBeNumeric: "a computed feature must be a number or a count"
        case .subjectRefBothRequiredAndOptional(let name): "subject ref '\(name)' is both required and optional"
        case .duplicateSubjectRef(let name): "subject ref '\(name)' is listed more than once"
        case .computedFeatureWithoutAccount(let name):
            "computed feature '\(name)' needs accountRef (velocity is counted per account), which this category's requests never carry: add accountRef to subject.required or subject.optional, or remove the feature"
        case .tooManyClientFeatures(let count, let limit):
            "\(count) client features, more than the \(limit) a request may send"
        case .noFeatures: "a catalogue needs at least one feature"
        }
    }
}
