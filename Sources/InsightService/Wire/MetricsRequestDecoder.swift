import InsightCore

/// The answer format of `GET /v1/metrics/labels` and `trust-insights export metrics`.
public enum MetricsFormat: String, Sendable, CaseIterable {
    case json
    case csv
}

/// A decoded metrics request: the query and the format to answer in.
public struct MetricsRequest: Sendable, Equatable {
    public var query: MetricsQuery
    public var format: MetricsFormat
}

/// Reads the parameters of a metrics request (`from`, `to`, `groupBy`, `format`, `environment`) from the query
/// string or the command line. Every problem names its parameter; a value is never echoed.
public enum MetricsRequestDecoder {
    public static let parameters = ["from", "to", "groupBy", "format", "environment"]
    /// The days covered when `from` is not given: `to` and the 89 before it, none before 1970-01-01 (the earliest
    /// `from` accepted).
    public static let defaultDays: Int64 = 90

    /// - Parameters:
    ///   - keyEnvironment: the caller's key environment: the default, and a sandbox key may read sandbox only.
    ///     Nil (the command line) defaults to production and allows everything.
    ///   - today: days since 1970-01-01 (UTC).
    public static func decode(
        _ items: [(name: String, value: String)], tenant: TenantID, keyEnvironment: DeploymentEnvironment?, today: Int64
    ) throws(ServiceProblem) -> MetricsRequest {
        var values: [String: String] = [:]
        for item in items {
            guard parameters.contains(item.name) else {
                throw .notAParameter(item.name, expected: "expected \(parameters.joined(separator: ", "))")
            }
            guard values.updateValue(item.value, forKey: item.name) == nil else {
                throw .invalidParameter(name: item.name, detail: "appears more than once")
            }
        }
        let to = try day(values["to"], name: "to") ?? today
        let from = try day(values["from"], name: "from") ?? max(0, to - defaultDays + 1)
        guard from <= to else { throw .invalidParameter(name: "from", detail: "must not be after to") }
        guard to - from < MetricsQuery.maximumDays else {
            throw .invalidParameter(name: "from", detail: "makes a range of more than \(MetricsQuery.maximumDays) days (both ends count)")
        }
        let format: MetricsFormat
        if let text = values["format"] {
            guard let known = MetricsFormat(rawValue: text) else { throw .invalidParameter(name: "format", detail: "must be json or csv") }
            format = known
        } else {
            format = .json
        }
        return MetricsRequest(
            query: MetricsQuery(
                tenant: tenant, days: from...to, groupBy: try groupBy(values["groupBy"]),
                environments: try environments(values["environment"], keyEnvironment: keyEnvironment)),
            format: format)
    }

    private static func day(_ text: String?, name: String) throws(ServiceProblem) -> Int64? {
        guard let text else { return nil }
        guard let days = Timestamp.days(fromDate: text) else { throw .invalidParameter(name: name, detail: "must be a date as YYYY-MM-DD, 1970-01-01 or later") }
        return days
    }

    private static func groupBy(_ text: String?) throws(ServiceProblem) -> [MetricsDimension] {
        guard let text, !text.isEmpty else { return [] }
        var dimensions: [MetricsDimension] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let dimension = MetricsDimension(rawValue: String(name)) else {
                throw .invalidParameter(
                    name: "groupBy",
                    detail: "must be a comma-separated list of \(MetricsDimension.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard !dimensions.contains(dimension) else { throw .invalidParameter(name: "groupBy", detail: "names \(dimension.rawValue) twice") }
            dimensions.append(dimension)
        }
        return dimensions
    }

    private static func environments(_ text: String?, keyEnvironment: DeploymentEnvironment?) throws(ServiceProblem) -> Set<DeploymentEnvironment> {
        let chosen: Set<DeploymentEnvironment>
        switch text {
        case nil: chosen = [keyEnvironment ?? .production]
        case "all": chosen = Set(DeploymentEnvironment.allCases)
        case let name?:
            guard let environment = DeploymentEnvironment(rawValue: name) else {
                throw .invalidParameter(name: "environment", detail: "must be production, sandbox or all")
            }
            chosen = [environment]
        }
        if keyEnvironment == .sandbox, chosen != [.sandbox] {
            throw .invalidParameter(name: "environment", detail: "must be sandbox for a sandbox key: production figures need a production key")
        }
        return chosen
    }
}
