import InsightModel

/// Checks a model against its category's feature catalogue at load and at registration: the category must be one
/// of ours, and every feature the model consumes must be declared there.
public struct CatalogueSchemaCheck: ModelSchemaCheck {
    public let catalogue: FeatureCatalogue

    public init(catalogue: FeatureCatalogue) { self.catalogue = catalogue }

    public func problems(with model: ModelDocument, insightType: String, category: String) -> [String] {
        if let problem = problem(insightType: insightType, category: category) { return [problem] }
        guard let category = OperationCategory(rawValue: category) else { return [] }
        do {
            _ = try catalogue.catalogue(for: category).indices(forModelFeatures: model.featureNames)
            return []
        } catch {
            return ["features not in the \(category.rawValue) catalogue: \(error.names.joined(separator: ", "))"]
        }
    }

    public func problem(insightType: String, category: String) -> String? {
        KnownPairsSchemaCheck().problem(insightType: insightType, category: category)
    }
}
