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
        let getOptions = access.getOptions(role: .client) { request, parameters in
            let problems = routes.parameterProblems(request, parameters)
            return problems.isEmpty ? nil : ServiceProblem.invalidParameters(problems)
        }
        router.add(.get, "/v1/authorization/{subjectRef}", options: getOptions) { request, context in
            try routes.get(request, context)
        }
        // A suspended key may still record an opt-in (below): whether it may is known only from the body.
        let refusal = routes.access.refusalBeforeBody(role: .client, admittingSuspended: true)
        let putOptions = RouteOptions(
            acceptedContentTypes: MediaType.json, checkBeforeAwaitingBody: refusal, checkBeforeEarlyAnswer: refusal,
            // The query and the ref come before a failed precondition (RFC 9110 §13.2.1): a ref that is no ref has
            // no state for `If-None-Match: *` to find.
            checkBeforeContent: { request, parameters in
                let problems = routes.parameterProblems(request, parameters)
                return problems.isEmpty ? nil : ServiceProblem.invalidParameters(problems)
            })
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

    private static let refViolation = ContextViolation(pointer: "subjectRef", code: "invalidParameter", detail: refDetail, parameter: .path)

    private static func validRef(_ parameters: [String: String]) -> String? {
        guard let ref = parameters["subjectRef"], !ref.isEmpty, Wire.fits(ref, EvaluationRequestDecoder.maximumRefLength) else {
            return nil
        }
        return ref
    }

    /// The query's parameters (the route takes none) and a ref that is no ref, named in one answer.
    private func parameterProblems(_ request: HTTPRequest, _ parameters: [String: String]) -> [ContextViolation] {
        NoQueryParameters.violations(request) + (Self.validRef(parameters) == nil ? [Self.refViolation] : [])
    }

    private func checkParameters(_ request: HTTPRequest, _ context: RequestContext) throws(ServiceProblem) {
        let problems = parameterProblems(request, context.parameters)
        guard problems.isEmpty else { throw .invalidParameters(problems) }
    }

    private func subject(_ context: RequestContext, _ principal: Principal) throws -> SubjectKey {
        guard let ref = Self.validRef(context.parameters) else {
            throw ServiceProblem.invalidParameters([Self.refViolation])
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
        try checkParameters(request, context)
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
        // A query is refused with the ref (both are parameters); a ref and a body both wrong are named together.
        if !NoQueryParameters.violations(request).isEmpty { try checkParameters(request, context) }
        let requested: AuthorizationStatus
        do {
            requested = try AuthorizationRequestDecoder.decode(request.body)
        } catch ServiceProblem.invalidRequest(let violations) where Self.validRef(context.parameters) == nil {
            // Both wrong: one answer names both, so the client need not learn of them one round trip at a time.
            throw ServiceProblem.invalidRequest([ContextViolation(pointer: "subjectRef", code: "invalidValue", detail: Self.refDetail, parameter: .path)] + violations)
        }
        let key = try subject(context, principal)
        // Answered once the change is durable; the loop does not wait for the commit (it did, and one key's flood
        // of opt-outs left other tenants 14% of their evaluations a second; docs/BENCHMARKS.md).
        let cooldownSeconds = registry.cooldownSeconds
        return DeferredResponse.awaiting(registry.change(tenant: principal.tenant, subject: key, to: requested, now: now)) { changed in
            guard case .success(let state) = changed else { return ServiceProblem.storageUnavailable.response }
            return .json(.ok, Self.encode(state, cooldownSeconds: cooldownSeconds))
        }
    }

    private func encode(_ state: AuthorizationState) -> [UInt8] {
        Self.encode(state, cooldownSeconds: registry.cooldownSeconds)
    }

    private static func encode(_ state: AuthorizationState, cooldownSeconds: Int64) -> [UInt8] {
        var writer = JSONWriter(capacity: 160)
        writer.beginObject()
        writer.member("status", state.status.rawValue)
        writer.member("pendingStatus", state.pendingStatus?.rawValue)
        writer.member("pendingEffectiveAt", state.pendingEffectiveAt.map { Timestamp.iso8601(milliseconds: $0) })
        writer.member("cooldownSeconds", Int(cooldownSeconds))
        writer.endObject()
        return writer.bytes
    }
}
