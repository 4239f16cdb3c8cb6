import CSQLite
import InsightCore

extension SQLiteStore: MetricsSource {}

extension SQLiteReadOnlyStore: MetricsSource {}

extension DatabaseReading {
    /// Reads the query's slice of the aggregate tables (a range scan of their primary keys per environment), so the
    /// cost follows the number of aggregate rows, not of evaluations. Both reads run in one read transaction, so
    /// the two tables agree with each other.
    public func forEachAggregate(
        _ query: MetricsQuery, aggregate: (MetricsAggregate) -> Void, latency: (LatencyAggregate) -> Void
    ) throws {
        try read { connection in
            try connection.transaction(immediate: false) {
                var keys = AggregateKeyReader()
                for environment in DeploymentEnvironment.allCases where query.environments.contains(environment) {
                    let daily = try connection.statement("""
                        SELECT day, category, model_version, outcome, consumption, evaluations, late, fraud, legitimate
                        FROM metrics_daily WHERE tenant_id = ? AND environment = ? AND day BETWEEN ? AND ?
                        """).bind(1, query.tenant.rawValue).bind(2, environment.rawValue)
                        .bind(3, query.days.lowerBound).bind(4, query.days.upperBound)
                    while try daily.step() {
                        guard let key = keys.key(daily, environment: environment) else { continue }
                        aggregate(MetricsAggregate(
                            key: key, evaluations: daily.int(5), late: daily.int(6), confirmedFraud: daily.int(7),
                            confirmedLegitimate: daily.int(8)))
                    }
                    let latencies = try connection.statement("""
                        SELECT day, category, model_version, outcome, consumption, latency_days, labels
                        FROM metrics_latency WHERE tenant_id = ? AND environment = ? AND day BETWEEN ? AND ?
                        """).bind(1, query.tenant.rawValue).bind(2, environment.rawValue)
                        .bind(3, query.days.lowerBound).bind(4, query.days.upperBound)
                    while try latencies.step() {
                        guard let key = keys.key(latencies, environment: environment) else { continue }
                        latency(LatencyAggregate(key: key, latencyDays: latencies.int(5), labels: latencies.int(6)))
                    }
                }
            }
        }
    }
}

/// Reads the key columns (day, category, model version, outcome, consumption) of an aggregate row. The vocabulary
/// is tiny, so each text column is matched against the values already seen instead of becoming a new String per
/// row: that is most of the cost of a large export.
struct AggregateKeyReader {
    private var categories = InternedColumn<OperationCategory>()
    private var modelVersions = InternedColumn<String>()
    private var outcomes = InternedColumn<RiskLevel>()
    private var consumptions = InternedColumn<ConsumptionBucket>()

    mutating func key(_ statement: SQLiteStatement, environment: DeploymentEnvironment) -> MetricsAggregate.Key? {
        guard let category = categories.value(statement, 1, OperationCategory.init(rawValue:)),
              let modelVersion = modelVersions.value(statement, 2, { $0 }),
              let outcome = outcomes.value(statement, 3, RiskLevel.init(rawValue:)),
              let consumption = consumptions.value(statement, 4, ConsumptionBucket.init(rawValue:))
        else { return nil }
        return MetricsAggregate.Key(
            environment: environment, day: statement.int64(0), category: category, modelVersion: modelVersion,
            outcome: outcome, consumption: consumption)
    }
}

struct InternedColumn<Value> {
    private var seen: [(bytes: [UInt8], value: Value?)] = []

    mutating func value(_ statement: SQLiteStatement, _ column: Int32, _ parse: (String) -> Value?) -> Value? {
        let count = Int(sqlite3_column_bytes(statement.handle, column))
        guard let text = sqlite3_column_text(statement.handle, column) else { return parse("") }
        let buffer = UnsafeBufferPointer(start: text, count: count)
        for entry in seen where entry.bytes.count == count && entry.bytes.elementsEqual(buffer) { return entry.value }
        let bytes = Array(buffer)
        let value = parse(String(decoding: bytes, as: UTF8.self))
        if seen.count < 256 { seen.append((bytes, value)) }
        return value
    }
}
