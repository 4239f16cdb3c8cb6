import InsightModel

/// Checks a model against its category's feature catalogue at load and at registration: the category must be one
/// of ours, and every feature the model consumes must be declared there.
public struct CatalogueSchemaCheck: ModelSchemaCheck {
    public let catalogue: FeatureCatalogue

    public init(catalogue: FeatureCatalogue) { self.catalogue = catalogue }

    public func problems(with model: ModelDocument, insightType: String, category: String) -> [String] {
        guard insightType == InsightType.isLikelyBeingCoached else { return ["unknown insight type '\(insightType)'"] }
        guard let category = OperationCategory(rawValue: category) else { return ["unknown operation category '\(category)'"] }
        do {
            _ = try catalogue.catalogue(for: category).indices(forModelFeatures: model.featureNames)
            return []
        } catch {
            return ["features not in the \(category.rawValue) catalogue: \(error.names.joined(separator: ", "))"]
        }
    }
}
