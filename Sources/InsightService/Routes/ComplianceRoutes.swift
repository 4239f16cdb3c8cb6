import HTTPServer
import InsightCore

/// `GET /v1/compliance`: a client key's own consumption-reporting figures and the limit they earn it.
struct ComplianceRoutes: Sendable {
    let access: RouteAccess
    let admission: AdmissionControl

    func register(in router: inout Router) {
        let routes = self
        router.add(.get, "/v1/compliance") { request, _ in try routes.show(request) }
    }

    func show(_ request: HTTPRequest) throws -> HTTPResponse {
        let now = Clock.nowMilliseconds()
        let principal = try access.principal(request, role: .client, now: now)
        let (limit, figures) = admission.effectiveLimit(for: principal, now: now)
        var headers = HTTPFields()
        headers.set("Cache-Control", "no-store")
        return .json(.ok, ComplianceEncoder.encode(
            figures, keyID: principal.keyID, limit: limit, baseLimit: admission.policy.limit(for: principal),
            policy: admission.policy.compliance, deadlineMilliseconds: admission.compliance.deadlineMilliseconds, now: now),
            headers: headers)
    }
}
