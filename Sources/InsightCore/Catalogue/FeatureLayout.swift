/// The order and lookup table of one category's features, shared by every `FeatureVector` of that category so
/// that a vector is one array of numbers plus one reference.
public final class FeatureLayout: Sendable {
    public let category: OperationCategory
    /// Feature names in catalogue order.
    public let names: [String]
    /// Indices of the features the service computes, ascending.
    public let computedIndices: [Int]
    let table: FeatureNameTable
    let rules: [FeatureRule]
    /// Pre-built request pointers (`/features/<escaped name>`), so that reporting a known feature allocates none.
    let pointers: [String]

    init(category: OperationCategory, definitions: [FeatureDefinition]) {
        self.category = category
        self.names = definitions.map(\.name)
        self.computedIndices = definitions.indices.filter { definitions[$0].source == .computed }
        self.table = FeatureNameTable(names: definitions.map(\.name))
        self.rules = definitions.map(FeatureRule.init)
        self.pointers = definitions.map { JSONPointer.feature($0.name) }
    }

    public var count: Int { names.count }

    public func index(of name: String) -> Int? { table.index(of: name) }
}
