import HTTPServer
import InsightCore

/// `POST /v1/labels`: a partner's batch of offline labels, answered item by item. Every new label of the batch is
/// committed in one transaction before the answer; `Idempotency-Key` makes a retry give the same answer again.
struct LabelRoutes: Sendable {
    static let bodyLimit = 8 * 1024 * 1024
    static let idempotencyHeader = "Idempotency-Key"

    let access: RouteAccess
    let intake: LabelIntake
    /// Keys the stored form of an `Idempotency-Key` with the tenant's secret (`IdempotentRequest.keyDigest`).
    let hasher: SubjectHasher
    let readiness: Readiness

    func register(in router: inout Router) {
        let routes = self
        // Up to 8 MiB per batch: the key is checked on the header section first, so only a partner's body is read.
        // The same check stands before an early answer to a request without a body (a failed precondition).
        let refusal = access.refusalBeforeBody(role: .partner)
        let options = RouteOptions(
            bodyLimit: Self.bodyLimit, acceptedContentTypes: MediaType.json,
            checkBeforeBody: refusal, checkBeforeEarlyAnswer: refusal,
            checkBeforeContent: { request, _ in
                do throws(ServiceProblem) {
                    try NoQueryParameters.check(request)
                    _ = try Self.idempotencyKey(request.headers)
                    return nil
                } catch {
                    return error
                }
            })
        router.add(.post, "/v1/labels", options: options) { request, _ in
            try routes.submit(request)
        }
    }

    /// The request's `Idempotency-Key`, if it sends one.
    static func idempotencyKey(_ headers: HTTPFields) throws(ServiceProblem) -> IdempotencyKey? {
        guard let value = headers[idempotencyHeader] else { return nil }
        // Two lines are one value `a, b` (RFC 9110 §5.3), which is no key: refused, not read as the first, so a
        // proxy that repeats or merges the field cannot file an answer under a key the client did not send.
        guard headers.count(of: idempotencyHeader) == 1 else {
            throw .invalidHeader(name: idempotencyHeader, detail: "appears more than once")
        }
        guard let key = IdempotencyKey(value) else {
            throw .invalidHeader(
                name: idempotencyHeader, detail: "must be 1 to \(IdempotencyKey.maximumLength) visible ASCII characters")
        }
        return key
    }

    func submit(_ request: HTTPRequest) throws -> HTTPResponse {
        let now = Clock.nowMilliseconds()
        let principal = try access.principal(request, role: .partner, now: now)
        try NoQueryParameters.check(request)
        var idempotency: IdempotentRequest?
        if let key = try Self.idempotencyKey(request.headers) {
            let digest: String
            do {
                digest = try hasher.digest(of: key, tenant: principal.tenant, environment: principal.environment)
            } catch {
                throw ServiceProblem.storageUnavailable
            }
            idempotency = IdempotentRequest(key: key, keyDigest: digest, body: request.body)
        }
        let drafts = try LabelBatchDecoder.decode(request.body)
        let answer = intake.submit(
            drafts, tenant: principal.tenant, environment: principal.environment, keyID: principal.keyID,
            idempotency: idempotency, now: now,
            encode: FeedbackEncoders.labelResults)
        let readiness = self.readiness
        return DeferredResponse.awaiting(answer) { answer in
            switch answer {
            case .success(let submission):
                var headers = HTTPFields()
                if case .replayed = submission { headers.set("Idempotent-Replayed", "true") }
                return .json(.ok, submission.response, headers: headers)
            case .failure(let error):
                if error == .storageFailed { readiness.noteStorageWrite(succeeded: false, now: Clock.nowMilliseconds()) }
                return ServiceProblem(error).response
            }
        }
    }
}
