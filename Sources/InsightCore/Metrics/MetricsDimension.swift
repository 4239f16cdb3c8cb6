/// What label metrics can be grouped by. Raw values are the names used in `groupBy`.
public enum MetricsDimension: String, Sendable, CaseIterable, Hashable {
    case category
    case modelVersion
    case outcome
    case consumption
    case environment
}
