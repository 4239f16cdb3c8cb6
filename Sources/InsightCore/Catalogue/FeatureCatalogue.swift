/// The catalogues of all five operation categories.
public struct FeatureCatalogue: Sendable {
    private let categories: [OperationCategory: CategoryCatalogue]

    /// Requires exactly one catalogue per category.
    public init(_ catalogues: [CategoryCatalogue]) throws(CatalogueError) {
        var categories: [OperationCategory: CategoryCatalogue] = [:]
        for catalogue in catalogues {
            if categories[catalogue.category] != nil {
                throw .invalid(file: "\(catalogue.category.rawValue).json", pointer: "/category", problem: .duplicateName(catalogue.category.rawValue))
            }
            categories[catalogue.category] = catalogue
        }
        for category in OperationCategory.allCases where categories[category] == nil {
            throw .missingFile(file: "\(category.rawValue).json")
        }
        self.categories = categories
    }

    /// The catalogue of one category; every category has one.
    public subscript(category: OperationCategory) -> CategoryCatalogue {
        categories[category]!
    }

    public func catalogue(for category: OperationCategory) -> CategoryCatalogue {
        self[category]
    }

    /// The names clients send, in every category.
    public var clientFeatureNames: [String] {
        OperationCategory.allCases.flatMap { category in self[category].clientFeatures.map(\.name) }
    }
}
