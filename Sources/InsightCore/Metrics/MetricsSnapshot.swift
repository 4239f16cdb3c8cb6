/// One read of a source's aggregates, answered again from memory: several reports built from it agree with each
/// other. The report's overall, by-outcome and by-version answers read the store three times, and a server writing
/// meanwhile made the page's rows not sum to its summary line (report probe, 6 December: 24,017 evaluations in the
/// summary, 24,020 in the outcome rows).
public struct MetricsSnapshot: MetricsSource {
    private let tenant: TenantID
    private let aggregates: [MetricsAggregate]
    private let latencies: [LatencyAggregate]

    /// Reads `query`'s slice (tenant, environments, days) of `source` once; its grouping does not matter.
    public init(of source: any MetricsSource, _ query: MetricsQuery) throws {
        var aggregates: [MetricsAggregate] = []
        var latencies: [LatencyAggregate] = []
        try source.forEachAggregate(query, aggregate: { aggregates.append($0) }, latency: { latencies.append($0) })
        self.tenant = query.tenant
        self.aggregates = aggregates
        self.latencies = latencies
    }

    /// The snapshot's rows within `query`'s slice: a query outside the slice it was read for gets only what the
    /// snapshot holds of it.
    public func forEachAggregate(
        _ query: MetricsQuery, aggregate: (MetricsAggregate) -> Void, latency: (LatencyAggregate) -> Void
    ) throws {
        guard query.tenant == tenant else { return }
        func inSlice(_ key: MetricsAggregate.Key) -> Bool {
            query.environments.contains(key.environment) && query.days.contains(key.day)
        }
        for row in aggregates where inSlice(row.key) { aggregate(row) }
        for row in latencies where inSlice(row.key) { latency(row) }
    }
}
