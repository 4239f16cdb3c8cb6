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

    init(access: RouteAccess, evaluator: Evaluator, signer: PayloadSigner, readiness: Readiness, admission: AdmissionControl) {
        self.access = access
        self.evaluator = evaluator
        self.signer = signer
        self.readiness = readiness
        self.admission = admission
        knownStrings = EvaluationRequestDecoder.knownStrings(featureNames: evaluator.clientFeatureNames)
    }

    func register(in router: inout Router) {
        let routes = self
        let options = RouteOptions(
            acceptedContentTypes: MediaType.json, checkBeforeEarlyAnswer: access.refusalBeforeBody(role: .client))
        router.add(.post, "/v1/evaluations", options: options) { request, _ in
            try routes.evaluate(request)
        }
    }

    func evaluate(_ request: HTTPRequest) throws -> HTTPResponse {
        let now = Clock.nowMilliseconds()
        let principal = try access.principal(request, role: .client, now: now)
        try NoQueryParameters.check(request)
        let admitted: RateLimitDecision
        switch admission.admitEvaluation(principal, now: now) {
        case .admitted(let decision): admitted = decision
        case .limited(let decision): throw ServiceProblem.evaluation(.rateLimitExceeded(RateLimitRejection(scope: "key", decision: decision)))
        case .suspended: throw ServiceProblem.accessRevoked
        }
        do {
            return try evaluate(request, principal: principal, admitted: admitted, now: now)
        } catch let problem as ServiceProblem {
            // A request the device's limit refused costs the key nothing (RATE-LIMITS.md): one flooding device
            // must not spend its app's allowance on every other device.
            if case .evaluation(.rateLimitExceeded(let rejection)) = problem, rejection.scope == "device" {
                admission.refundEvaluation(principal, limit: admitted.limit)
            }
            // Every answer to an admitted request carries the key's limit, the refusals too (API.md); a 429 of
            // another limit (the device's) names that one instead.
            var response = problem.response
            if !response.headers.contains("RateLimit-Policy") {
                RateLimitFields.apply(admitted, name: "key", to: &response.headers)
            }
            return response
        }
    }

    private func evaluate(
        _ request: HTTPRequest, principal: Principal, admitted: RateLimitDecision, now: Int64
    ) throws -> HTTPResponse {
        let overrides = try SandboxOverrideHeaders.parse(request.headers, environment: principal.environment)
        let decoded = try EvaluationRequestDecoder.decode(request.body, knownStrings: knownStrings)
        var pending: Evaluator.Pending
        do {
            pending = try evaluator.start(decoded, principal: principal, overrides: overrides, now: now)
        } catch {
            throw ServiceProblem.evaluation(error)
        }
        pending.result.serverTimestamp = Clock.nowMilliseconds()
        let shared = EvaluationResultEncoder.SharedParts(pending.result)
        let signed: [UInt8]
        do {
            signed = try signer.sign(EvaluationResultEncoder.canonicalPayload(pending.result, shared: shared))
        } catch {
            throw ServiceProblem.evaluation(.serverError)
        }
        // Answered while the record commits; the server sends the answer only once it is durable, and a 503
        // in its place if it cannot be.
        var headers = HTTPFields()
        RateLimitFields.apply(admitted, name: "key", to: &headers)
        var response = HTTPResponse.json(.ok, EvaluationResultEncoder.response(
            pending.result, shared: shared, signedPayload: signed), headers: headers)
        let gate = ResponseGate()
        response.gate = gate
        let readiness = self.readiness
        let compliance = admission.compliance
        pending.durability.whenFulfilled { succeeded in
            if succeeded {
                // Counted only once stored: an evaluation the client never got cannot be owed a report. Before
                // the gate opens, so a report racing back cannot find its evaluation uncounted.
                compliance.noteEvaluation(keyID: principal.keyID, at: now)
                gate.open()
            } else {
                readiness.noteStorageWrite(succeeded: false, now: Clock.nowMilliseconds())
                // The replacement is an answer to an admitted request like any other: it carries the key's limit.
                var replacement = ServiceProblem.evaluation(.serverError).response
                RateLimitFields.apply(admitted, name: "key", to: &replacement.headers)
                gate.replace(with: replacement)
            }
        }
        return response
    }
}
