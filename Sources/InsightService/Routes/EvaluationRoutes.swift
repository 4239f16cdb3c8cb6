import HTTPServer
import InsightCore

/// `POST /v1/evaluations`: decode, evaluate, sign, answer. The record is durable before the answer leaves.
struct EvaluationRoutes: Sendable {
    let access: RouteAccess
    let evaluator: Evaluator
    let signer: PayloadSigner
    let readiness: Readiness

    func register(in router: inout Router) {
        let routes = self
        router.add(.post, "/v1/evaluations", options: RouteOptions(acceptedContentTypes: MediaType.json)) { request, _ in
            try routes.evaluate(request)
        }
    }

    func evaluate(_ request: HTTPRequest) throws -> HTTPResponse {
        let now = Clock.nowMilliseconds()
        let principal = try access.principal(request, roles: [.client], now: now)
        let overrides = try SandboxOverrideHeaders.parse(request.headers, environment: principal.environment)
        let decoded = try EvaluationRequestDecoder.decode(request.body)
        var result: EvaluationResult
        do {
            result = try evaluator.evaluate(decoded, principal: principal, overrides: overrides, now: now)
        } catch {
            if error == .serverError { readiness.noteStorageWrite(succeeded: false, now: now) }
            throw ServiceProblem.evaluation(error)
        }
        result.serverTimestamp = Clock.nowMilliseconds()
        let signed: [UInt8]
        do {
            signed = try signer.sign(EvaluationResultEncoder.canonicalPayload(result))
        } catch {
            throw ServiceProblem.evaluation(.serverError)
        }
        return .json(.ok, EvaluationResultEncoder.response(result, signedPayload: signed))
    }
}
