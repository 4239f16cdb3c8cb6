import InsightModel

/// Checks only that a model answers one of our insight types for one of our operation categories: what the `models`
/// commands can still check when no feature catalogue is at hand (both lists are fixed, and need none).
public struct KnownPairsSchemaCheck: ModelSchemaCheck {
    public init() {}

    public func problems(with model: ModelDocument, insightType: String, category: String) -> [String] {
        problem(insightType: insightType, category: category).map { [$0] } ?? []
    }

    public func problem(insightType: String, category: String) -> String? {
        guard insightType == InsightType.isLikelyBeingCoached else {
            return "unknown insight type '\(insightType)' (the service answers \(InsightType.isLikelyBeingCoached))"
        }
        guard OperationCategory(rawValue: category) != nil else {
            let names = OperationCategory.allCases.map(\.rawValue)
            return "unknown operation category '\(category)' (\(names.dropLast().joined(separator: ", ")) or \(names.last!))"
        }
        return nil
    }
}
