import HTTPServer
import InsightCore

/// `GET /v1/compliance`: a client key's own consumption-reporting figures and the limit they earn it.
struct ComplianceRoutes: Sendable {
    let access: RouteAccess
    let admission: AdmissionControl

    func register(in router: inout Router) {
        let routes = self
        let options = access.getOptions(role: .client, admittingSuspended: true) { request, _ in
            let problems = NoQueryParameters.violations(request, expected: Self.noQuery)
            return problems.isEmpty ? nil : ServiceProblem.invalidParameters(problems)
        }
        router.add(.get, "/v1/compliance", options: options) { request, _ in
            try routes.show(request)
        }
    }

    private static let noQuery = "it takes none: the figures are the calling key's own"

    func show(_ request: HTTPRequest) throws -> HTTPResponse {
        let now = Clock.nowMilliseconds()
        // A suspended key may still read its figures: why it was suspended, and how far its reports have caught up.
        let principal = try access.principal(request, role: .client, now: now, admittingSuspended: true)
        // The figures are always the caller's own: a parameter such as ?keyID= is refused rather than ignored, so
        // that nobody takes the answer for another key's.
        try NoQueryParameters.check(request, expected: Self.noQuery)
        let (limit, figures) = admission.complianceFigures(for: principal, now: now)
        var headers = HTTPFields()
        headers.set("Cache-Control", "no-store")
        return .json(.ok, ComplianceEncoder.encode(
            figures, keyID: principal.keyID, limit: limit, baseLimit: admission.policy.limit(for: principal),
            policy: admission.policy.compliance, deadlineMilliseconds: admission.compliance.deadlineMilliseconds, now: now),
            headers: headers)
    }
}
