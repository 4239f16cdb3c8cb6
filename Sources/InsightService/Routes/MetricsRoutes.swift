import HTTPServer
import InsightCore

/// `GET /v1/metrics/labels`: label metrics of the analyst's own tenant, as JSON or CSV.
struct MetricsRoutes: Sendable {
    let access: RouteAccess
    let metrics: LabelMetrics

    func register(in router: inout Router) {
        let routes = self
        // The query's problems, as the handler finds them (the key's environment included: a sandbox key may
        // not ask for production, regression probe, 6 December); decoding is cheap, the report is not.
        let options = access.getOptions(role: .analyst) { request, _ in
            do throws(ServiceProblem) {
                _ = try routes.decode(request, now: Clock.nowMilliseconds())
                return nil
            } catch {
                return error
            }
        }
        router.add(.get, "/v1/metrics/labels", options: options) { request, _ in
            try routes.labels(request)
        }
    }

    /// The analyst's query, or what is wrong with it (after the key).
    func decode(_ request: HTTPRequest, now: Int64) throws(ServiceProblem) -> MetricsRequest {
        let principal = try access.principal(request, role: .analyst, now: now)
        return try MetricsRequestDecoder.decode(
            request.queryItems, tenant: principal.tenant, keyEnvironment: principal.environment,
            today: MetricsQuery.day(ofMilliseconds: now))
    }

    func labels(_ request: HTTPRequest) throws -> HTTPResponse {
        let now = Clock.nowMilliseconds()
        let decoded = try decode(request, now: now)
        let report: LabelMetricsReport
        do {
            report = try metrics.report(decoded.query, now: now)
        } catch {
            throw ServiceProblem.storageUnavailable
        }
        switch decoded.format {
        case .json:
            return .json(.ok, MetricsJSONEncoder.encode(report))
        case .csv:
            var headers = HTTPFields()
            headers.set("Content-Type", "text/csv; charset=utf-8")
            headers.set("Content-Disposition", "attachment; filename=\"label-metrics.csv\"")
            return HTTPResponse(status: .ok, headers: headers, body: MetricsCSVEncoder.encode(report))
        }
    }
}
