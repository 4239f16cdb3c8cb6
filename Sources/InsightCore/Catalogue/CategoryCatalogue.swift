/// The features one operation category accepts, in a fixed order, and the subject refs it needs.
public struct CategoryCatalogue: Sendable {
    public let category: OperationCategory
    /// The document's own version (e.g. "2026.11.1"); models record the catalogue version they were trained on.
    public let version: String
    public let requiredSubjectRefs: [SubjectRefKind]
    public let optionalSubjectRefs: [SubjectRefKind]
    /// Every feature, client-sent and computed, in catalogue order (the order of `FeatureVector`).
    public let features: [FeatureDefinition]
    public let layout: FeatureLayout

    /// Builds a catalogue after checking it; `file` only labels errors.
    public init(
        category: OperationCategory,
        version: String,
        requiredSubjectRefs: [SubjectRefKind],
        optionalSubjectRefs: [SubjectRefKind] = [],
        features: [FeatureDefinition],
        file: String = "<memory>"
    ) throws(CatalogueError) {
        try CatalogueChecks.check(features: features, file: file)
        for ref in requiredSubjectRefs where optionalSubjectRefs.contains(ref) {
            throw .invalid(file: file, pointer: "/subject", problem: .subjectRefBothRequiredAndOptional(ref.rawValue))
        }
        for (list, refs) in [("required", requiredSubjectRefs), ("optional", optionalSubjectRefs)] {
            for (index, ref) in refs.enumerated() where refs[..<index].contains(ref) {
                throw .invalid(file: file, pointer: "/subject/\(list)/\(index)", problem: .duplicateSubjectRef(ref.rawValue))
            }
        }
        if !requiredSubjectRefs.contains(.accountRef) && !optionalSubjectRefs.contains(.accountRef),
           let index = features.firstIndex(where: { $0.source == .computed })
        {
            throw .invalid(file: file, pointer: "/features/\(index)", problem: .computedFeatureWithoutAccount(features[index].name))
        }
        let clientCount = features.count { $0.source == .client }
        if clientCount > Self.maximumClientFeatures {
            throw .invalid(file: file, pointer: "/features", problem: .tooManyClientFeatures(clientCount, limit: Self.maximumClientFeatures))
        }
        self.category = category
        self.version = version
        self.requiredSubjectRefs = requiredSubjectRefs
        self.optionalSubjectRefs = optionalSubjectRefs
        self.features = features
        self.layout = FeatureLayout(category: category, definitions: features)
    }

    /// The definition of a named feature.
    public func definition(named name: String) -> FeatureDefinition? {
        layout.index(of: name).map { features[$0] }
    }

    /// Client-sent features, in catalogue order.
    public var clientFeatures: [FeatureDefinition] { features.filter { $0.source == .client } }

    /// Service-computed (velocity) features, in catalogue order.
    public var computedFeatures: [FeatureDefinition] { features.filter { $0.source == .computed } }

    /// Most features one evaluation request may send (its `features` object); a catalogue may not declare more.
    public static let maximumClientFeatures = 256

    /// Whether a request of this category may carry the ref (required or optional).
    public func allows(_ kind: SubjectRefKind) -> Bool {
        requiredSubjectRefs.contains(kind) || optionalSubjectRefs.contains(kind)
    }

    /// The required refs a request lacks, in catalogue order. Asked of the refs directly: a set of the kinds
    /// present, built per request, showed up in the evaluation route's allocation counts.
    public func missingSubjectRefs(in subject: SubjectReferences) -> [SubjectRefKind] {
        requiredSubjectRefs.filter { subject.value(of: $0) == nil }
    }

    /// The refs a request carries that this category does not use.
    public func unusedSubjectRefs(in subject: SubjectReferences) -> [SubjectRefKind] {
        SubjectRefKind.allCases.filter { subject.value(of: $0) != nil && !allows($0) }
    }

    /// A vector with every feature missing, for callers that build one feature by feature.
    public func emptyVector() -> FeatureVector {
        FeatureVector(layout: layout, storage: [Double](repeating: .nan, count: features.count))
    }
}
