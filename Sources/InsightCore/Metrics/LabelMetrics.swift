/// Label metrics for analysts: reads the store's exact aggregates for a query and publishes them under the policy.
public struct LabelMetrics: Sendable {
    public let source: any MetricsSource
    public let policy: MetricsPolicy

    public init(source: any MetricsSource, policy: MetricsPolicy) {
        self.source = source
        self.policy = policy
    }

    public func report(_ query: MetricsQuery, now: Int64) throws(MetricsError) -> LabelMetricsReport {
        var accumulator = MetricsAccumulator(query: query)
        do {
            try source.forEachAggregate(query, aggregate: { accumulator.add($0) }, latency: { accumulator.add($0) })
        } catch {
            throw .storageFailed
        }
        return accumulator.report(policy: policy, now: now)
    }
}

public enum MetricsError: Error, Equatable {
    case storageFailed
}
