import HTTPServer
import InsightCore

/// `POST /v1/evaluations/{evaluationID}/consumption`: the app's mandatory report of how it used an evaluation.
/// 201 for the first report, 200 for the same report again; stored durably before the answer, which the server
/// holds (not the thread) until the write commits.
struct ConsumptionRoutes: Sendable {
    let access: RouteAccess
    let intake: ConsumptionIntake
    let admission: AdmissionControl
    let readiness: Readiness

    func register(in router: inout Router) {
        let routes = self
        // The route serves keys suspended for missing consumption reports too (see `report`): not refused here either.
        let refusal = access.refusalBeforeBody(role: .client, admittingSuspended: true)
        let options = RouteOptions(
            acceptedContentTypes: MediaType.json, checkBeforeAwaitingBody: refusal, checkBeforeEarlyAnswer: refusal,
            // Before content, the route refuses only a query (RFC 9110 §13.2.1 puts that before a failed
            // precondition); whether the evaluation exists is looked up after the report is read.
            checkBeforeContent: { request, _ in
                let problems = NoQueryParameters.violations(request)
                return problems.isEmpty ? nil : ServiceProblem.invalidParameters(problems)
            })
        router.add(.post, "/v1/evaluations/{evaluationID}/consumption", options: options) { request, context in
            try routes.report(request, context)
        }
    }

    func report(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let now = Clock.nowMilliseconds()
        // A key suspended for not reporting may still send its overdue reports: refusing them would punish the
        // very thing the suspension asks for, and its figures (which an operator weighs before reinstating it)
        // count them.
        let principal = try access.principal(request, role: .client, now: now, admittingSuspended: true)
        // Whichever of the key's requests first finds its suspension due stores it (RATE-LIMITS.md): a key that
        // only sends reports must not stay active in the key table. The report is taken all the same.
        admission.noteRequest(by: principal, now: now)
        try NoQueryParameters.check(request)
        let evaluationID = context.parameters["evaluationID"] ?? ""
        let report: ConsumptionReport
        switch try ConsumptionRequestDecoder.decodeCollecting(request.body) {
        case .success(let decoded): report = decoded
        case .failure(let invalid):
            // One answer names every problem: the IDs that are not the evaluation's too, beside a wrong status or
            // an unknown member (labels probe, 6 December: a second 400 named them only once the first was fixed).
            let foreign = invalid.insightIDs.map { items in
                intake.insightViolations(
                    items.map { (index: $0.index, id: $0.id) }, evaluationID: evaluationID, tenant: principal.tenant,
                    environment: principal.environment)
            } ?? []
            throw ServiceProblem.invalidRequest(invalid.violations + foreign)
        }
        let answer = intake.submit(
            report, evaluationID: evaluationID, tenant: principal.tenant, environment: principal.environment, now: now)
        let readiness = self.readiness
        return DeferredResponse.awaiting(answer) { answer in
            switch answer {
            case .success(.recorded(let record)): return .json(.created, FeedbackEncoders.consumption(record))
            case .success(.repeated(let record)): return .json(.ok, FeedbackEncoders.consumption(record))
            case .failure(let error):
                if error == .storageFailed { readiness.noteStorageWrite(succeeded: false, now: Clock.nowMilliseconds()) }
                return ServiceProblem(error).response
            }
        }
    }
}
