import HTTPServer
import InsightCore
import JSONStream

/// `POST /v1/evaluations`: decode, evaluate, sign, answer. The record is durable before the answer leaves.
struct EvaluationRoutes: Sendable {
    let access: RouteAccess
    let evaluator: Evaluator
    let signer: PayloadSigner
    let readiness: Readiness
    let admission: AdmissionControl
    /// Field and feature names the decoder reads without allocating.
    let knownStrings: JSONKnownStrings
    /// Made once: a method reference formed per request would allocate its context each time.
    let contextCheck: EvaluationRequestDecoder.ContextCheck

    init(access: RouteAccess, evaluator: Evaluator, signer: PayloadSigner, readiness: Readiness, admission: AdmissionControl) {
        self.access = access
        self.evaluator = evaluator
        self.signer = signer
        self.readiness = readiness
        self.admission = admission
        knownStrings = EvaluationRequestDecoder.knownStrings(featureNames: evaluator.clientFeatureNames)
        contextCheck = { evaluator.contextViolations($0, subject: $1, features: $2) }
    }

    func register(in router: inout Router) {
        let routes = self
        // The key is checked on the header section alone when the body is still to come (see
        // `checkBeforeAwaitingBody`), so a caller without one holds no buffer while it sends.
        let refusal = access.refusalBeforeBody(role: .client)
        let options = RouteOptions(
            acceptedContentTypes: MediaType.json, checkBeforeAwaitingBody: refusal, checkBeforeEarlyAnswer: refusal,
            checkBeforeContent: { request, _ in routes.refusalBeforeContent(request) })
        router.add(.post, "/v1/evaluations", options: options) { request, context in
            try routes.evaluate(request, loopTasks: context.loopTasks)
        }
    }

    /// What the route refuses in a request before reading its content: its query and its override headers. For a
    /// failed precondition, which these come before (RFC 9110 §13.2.1); the key's own refusal is checked after this
    /// by `checkBeforeEarlyAnswer`, and the rate limit is not consulted (a 412 costs the key nothing).
    func refusalBeforeContent(_ request: HTTPRequest) -> ServiceProblem? {
        do throws(ServiceProblem) {
            let principal = try access.principal(request, role: .client, now: Clock.nowMilliseconds())
            try NoQueryParameters.check(request)
            _ = try SandboxOverrideHeaders.parse(request.headers, environment: principal.environment)
            return nil
        } catch .unauthenticated, .forbiddenRole, .accessRevoked {
            return nil
        } catch {
            return error
        }
    }

    /// With `loopTasks`, the answer is signed and encoded at the end of the event loop's pass, together with the
    /// other answers of that pass: back to back, the signatures cost less (docs/BENCHMARKS.md). Without, at once.
    func evaluate(_ request: HTTPRequest, loopTasks: LoopTasks?) throws -> HTTPResponse {
        let now = Clock.nowMilliseconds()
        let principal = try access.principal(request, role: .client, now: now)
        try NoQueryParameters.check(request)
        // Refused before the rate limit is consulted, as when the body is still to come (`refusalBeforeContent`):
        // whether a refusal costs the key a request must not depend on how the bytes arrived.
        let overrides = try SandboxOverrideHeaders.parse(request.headers, environment: principal.environment)
        let admitted: RateLimitDecision
        switch admission.admitEvaluation(principal, now: now) {
        case .admitted(let decision): admitted = decision
        case .limited(let decision): throw ServiceProblem.evaluation(.rateLimitExceeded(RateLimitRejection(scope: "key", decision: decision)))
        case .suspended: throw ServiceProblem.accessRevoked
        }
        var forced = false
        do {
            return try evaluate(
                request, principal: principal, overrides: overrides, admitted: admitted, now: now, loopTasks: loopTasks,
                forced: &forced)
        } catch let problem as ServiceProblem {
            // A request the device's limit refused costs the key nothing (RATE-LIMITS.md): one flooding device
            // must not spend its app's allowance on every other device. Nor does a 429 a sandbox override forced,
            // which tests the app's handling of a refusal and so should cost what a refusal costs.
            if case .evaluation(.rateLimitExceeded(let rejection)) = problem, rejection.scope == "device" || rejection.scope == "sandboxOverride" {
                admission.refundEvaluation(principal, limit: admitted.limit)
            }
            // Every answer to an admitted request carries the key's limit, the refusals too (API.md); a 429 of
            // another limit (the device's) names that one instead.
            var response = problem.response
            if !response.headers.contains("RateLimit-Policy") {
                RateLimitFields.apply(admitted, name: "key", to: &response.headers)
            }
            // A sandbox override's error is the answer the app asked for: no failure for the operator's metrics.
            response.isSimulated = forced
            return response
        }
    }

    /// `forced` is set when the evaluation fails with the error a sandbox override forced.
    private func evaluate(
        _ request: HTTPRequest, principal: Principal, overrides: SandboxOverrides, admitted: RateLimitDecision, now: Int64,
        loopTasks: LoopTasks?, forced: inout Bool
    ) throws -> HTTPResponse {
        let decoded = try EvaluationRequestDecoder.decode(request.body, knownStrings: knownStrings, contextCheck: contextCheck)
        var pending: Evaluator.Pending
        do {
            pending = try evaluator.start(decoded, principal: principal, overrides: overrides, now: now)
        } catch {
            // `start` throws a forced error before looking at anything else, so with one forced, this is it.
            forced = overrides.evaluationError != nil
            throw ServiceProblem.evaluation(error)
        }
        pending.result.serverTimestamp = Clock.nowMilliseconds()
        let result = pending.result
        let compliance = admission.compliance
        // Counted only once stored and about to be sent: an evaluation the client never got cannot be owed a report.
        let answer = EvaluationAnswer(beforeSending: { compliance.noteEvaluation(keyID: principal.keyID, at: now) })
        let readiness = self.readiness
        // The answer goes only once its record is durable, and a 503 in its place if it cannot be.
        pending.durability.whenFulfilled { succeeded in
            if succeeded {
                answer.recorded()
            } else {
                readiness.noteStorageWrite(succeeded: false, now: Clock.nowMilliseconds())
                answer.failed(Self.serverError(admitted))
            }
        }
        let signer = self.signer
        let respond = {
            let shared = EvaluationResultEncoder.SharedParts(result)
            guard let signed = try? signer.sign(EvaluationResultEncoder.canonicalPayload(result, shared: shared)) else {
                answer.failed(Self.serverError(admitted))
                return
            }
            var headers = HTTPFields()
            RateLimitFields.apply(admitted, name: "key", to: &headers)
            answer.signed(.json(.ok, EvaluationResultEncoder.response(result, shared: shared, signedPayload: signed), headers: headers))
        }
        if let loopTasks { loopTasks.enqueue(respond) } else { respond() }
        return answer.placeholder
    }

    /// A `serverError` answer to an admitted request, which like any other carries the key's limit.
    private static func serverError(_ admitted: RateLimitDecision) -> HTTPResponse {
        var response = ServiceProblem.evaluation(.serverError).response
        RateLimitFields.apply(admitted, name: "key", to: &response.headers)
        return response
    }
}
