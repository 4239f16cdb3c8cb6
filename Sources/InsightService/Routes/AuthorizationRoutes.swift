import HTTPServer
import InsightCore
import JSONStream

/// `GET` and `PUT /v1/authorization/{subjectRef}`: the person's choice for this app. The ref in the path is the
/// account ref; it is hashed with the tenant's key at once and never kept.
struct AuthorizationRoutes: Sendable {
    let access: RouteAccess
    let registry: AuthorizationRegistry
    let hasher: SubjectHasher

    func register(in router: inout Router) {
        let routes = self
        router.add(.get, "/v1/authorization/{subjectRef}") { request, context in
            try routes.get(request, context)
        }
        // A suspended key may still record an opt-in (below): whether it may is known only from the body.
        let putOptions = RouteOptions(
            acceptedContentTypes: MediaType.json,
            checkBeforeEarlyAnswer: routes.access.refusalBeforeBody(role: .client, admittingSuspended: true))
        router.add(.put, "/v1/authorization/{subjectRef}", options: putOptions) { request, context in
            try routes.put(request, context)
        }
    }

    /// True for a well-formed choice that does not block evaluations (`authorized`, `notDetermined`); anything
    /// else, a malformed body included, is what a suspended key may not send.
    private static func turnsProtectionOn(_ body: [UInt8]) -> Bool {
        guard let requested = try? AuthorizationRequestDecoder.decode(body) else { return false }
        return !requested.blocksEvaluation
    }

    private static let refDetail = "must be 1 to \(EvaluationRequestDecoder.maximumRefLength) characters long, and UTF-8 once percent-decoded"

    private func validRef(_ context: RequestContext) -> String? {
        guard let ref = context.parameters["subjectRef"], !ref.isEmpty, Wire.fits(ref, EvaluationRequestDecoder.maximumRefLength) else {
            return nil
        }
        return ref
    }

    private func subject(_ context: RequestContext, _ principal: Principal) throws -> SubjectKey {
        guard let ref = validRef(context) else {
            throw ServiceProblem.invalidParameter(name: "subjectRef", detail: Self.refDetail)
        }
        do {
            return try hasher.key(for: ref, kind: .accountRef, tenant: principal.tenant, environment: principal.environment)
        } catch {
            throw ServiceProblem.storageUnavailable
        }
    }

    func get(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let now = Clock.nowMilliseconds()
        let principal = try access.principal(request, role: .client, now: now)
        try NoQueryParameters.check(request)
        let key = try subject(context, principal)
        let state: AuthorizationState
        do {
            state = try registry.state(tenant: principal.tenant, subject: key, now: now)
        } catch {
            throw ServiceProblem.storageUnavailable
        }
        return .json(.ok, encode(state))
    }

    func put(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let now = Clock.nowMilliseconds()
        let principal = try access.principal(request, role: .client, now: now, admittingSuspended: true)
        // A key suspended for not reporting is refused, except for a choice that turns protection on: suspending
        // the app must not hold back the opt-in of someone coached into opting out (RATE-LIMITS.md).
        if principal.isSuspended, !Self.turnsProtectionOn(request.body) { throw ServiceProblem.accessRevoked }
        try NoQueryParameters.check(request)
        let requested: AuthorizationStatus
        do {
            requested = try AuthorizationRequestDecoder.decode(request.body)
        } catch ServiceProblem.invalidRequest(let violations) where validRef(context) == nil {
            // Both wrong: one answer names both, so the client need not learn of them one round trip at a time.
            throw ServiceProblem.invalidRequest([ContextViolation(pointer: "subjectRef", code: "invalidValue", detail: Self.refDetail)] + violations)
        }
        let key = try subject(context, principal)
        let state: AuthorizationState
        do {
            state = try registry.change(tenant: principal.tenant, subject: key, to: requested, now: now)
        } catch {
            throw ServiceProblem.storageUnavailable
        }
        return .json(.ok, encode(state))
    }

    private func encode(_ state: AuthorizationState) -> [UInt8] {
        var writer = JSONWriter(capacity: 160)
        writer.beginObject()
        writer.member("status", state.status.rawValue)
        writer.member("pendingStatus", state.pendingStatus?.rawValue)
        writer.member("pendingEffectiveAt", state.pendingEffectiveAt.map { Timestamp.iso8601(milliseconds: $0) })
        writer.member("cooldownSeconds", Int(registry.cooldownSeconds))
        writer.endObject()
        return writer.bytes
    }
}
