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

    /// Every problem is reported at once, one per parameter (the first found for it), so an analyst does not
    /// learn of them one round trip at a time; the range is checked only once both of its ends are dates.
    ///
    /// - Parameters:
    ///   - keyEnvironment: the caller's key environment: the default, and a sandbox key may read sandbox only.
    ///     Nil (the command line) defaults to production and allows everything.
    ///   - today: days since 1970-01-01 (UTC).
    public static func decode(
        _ items: [(name: String, value: String)], tenant: TenantID, keyEnvironment: DeploymentEnvironment?, today: Int64
    ) throws(ServiceProblem) -> MetricsRequest {
        var problems: [ContextViolation] = []
        func problem(_ name: String, _ detail: String) {
            problems.append(ContextViolation(pointer: name, code: "invalidParameter", detail: detail, parameter: .query))
        }
        var values: [String: String] = [:]
        var repeated: Set<String> = []
        var unknownNames: Set<String> = []
        for item in items {
            guard parameters.contains(item.name) else {
                // One error per distinct name, as `NoQueryParameters` and a body's unknown members give.
                if unknownNames.insert(item.name).inserted {
                    problems.append(ServiceProblem.notAParameterViolation(item.name, expected: "expected \(parameters.joined(separator: ", "))"))
                }
                continue
            }
            guard values.updateValue(item.value, forKey: item.name) == nil else {
                if repeated.insert(item.name).inserted { problem(item.name, "appears more than once") }
                continue
            }
        }
        func checked<T>(_ name: String, _ read: (String) -> Result<T, ParameterProblem>) -> T? {
            guard !repeated.contains(name), let text = values[name] else { return nil }
            switch read(text) {
            case .success(let value): return value
            case .failure(let failure):
                problem(name, failure.detail)
                return nil
            }
        }
        let toDay = checked("to", Self.day)
        let fromDay = checked("from", Self.day)
        let format = checked("format") { text -> Result<MetricsFormat, ParameterProblem> in
            guard let format = MetricsFormat(rawValue: text) else { return .failure(ParameterProblem("must be json or csv")) }
            return .success(format)
        }
        let dimensions = checked("groupBy", Self.groupBy) ?? []
        let chosenEnvironments = values["environment"] == nil
            ? try? Self.environments(nil, keyEnvironment: keyEnvironment).get()
            : checked("environment") { Self.environments($0, keyEnvironment: keyEnvironment) }
        let badEnds = (values["to"] != nil && toDay == nil) || (values["from"] != nil && fromDay == nil)
        let to = toDay ?? today
        let from = fromDay ?? max(0, to - defaultDays + 1)
        if !badEnds {
            if from > to {
                problem("from", "must not be after to")
            } else if to - from >= MetricsQuery.maximumDays {
                problem("from", "makes a range of more than \(MetricsQuery.maximumDays) days (both ends count)")
            }
        }
        guard problems.isEmpty, let chosenEnvironments else { throw .invalidParameters(problems) }
        return MetricsRequest(
            query: MetricsQuery(tenant: tenant, days: from...to, groupBy: dimensions, environments: chosenEnvironments),
            format: format ?? .json)
    }

    /// What is wrong with one parameter's value, never the value itself.
    struct ParameterProblem: Error {
        var detail: String
        init(_ detail: String) { self.detail = detail }
    }

    private static func day(_ text: String) -> Result<Int64, ParameterProblem> {
        guard let days = Timestamp.days(fromDate: text) else { return .failure(ParameterProblem("must be a date as YYYY-MM-DD, 1970-01-01 or later")) }
        return .success(days)
    }

    private static func groupBy(_ text: String) -> Result<[MetricsDimension], ParameterProblem> {
        guard !text.isEmpty else { return .success([]) }
        var dimensions: [MetricsDimension] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let dimension = MetricsDimension(rawValue: String(name)) else {
                return .failure(ParameterProblem(
                    "must be a comma-separated list of \(MetricsDimension.allCases.map(\.rawValue).joined(separator: ", "))"))
            }
            guard !dimensions.contains(dimension) else { return .failure(ParameterProblem("names \(dimension.rawValue) twice")) }
            dimensions.append(dimension)
        }
        return .success(dimensions)
    }

    private static func environments(_ text: String?, keyEnvironment: DeploymentEnvironment?) -> Result<Set<DeploymentEnvironment>, ParameterProblem> {
        let chosen: Set<DeploymentEnvironment>
        switch text {
        case nil: chosen = [keyEnvironment ?? .production]
        case "all": chosen = Set(DeploymentEnvironment.allCases)
        case let name?:
            guard let environment = DeploymentEnvironment(rawValue: name) else {
                return .failure(ParameterProblem("must be production, sandbox or all"))
            }
            chosen = [environment]
        }
        if keyEnvironment == .sandbox, chosen != [.sandbox] {
            return .failure(ParameterProblem("must be sandbox for a sandbox key: production figures need a production key"))
        }
        return .success(chosen)
    }
}
