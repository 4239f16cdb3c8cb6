/// The HTTP side of one connection, with no socket: bytes in, response bytes out (into `output`), plus flags
/// telling the event loop when to stop reading and how to close. Tests drive it directly.
///
/// A struct, mutated in place through the connection object: the many field updates of a request then need
/// no dynamic exclusivity checks, which class properties would (they showed up at 4% of a profile).
struct ConnectionSession {
    /// Stop parsing pipelined requests while this much output is unsent: back-pressure on a slow reader.
    static let outputHighWater = 256 * 1024

    let services: LoopServices
    let remoteAddress: String
    var parser: HTTPRequestParser
    var output = OutputQueue()
    var deadlines: ConnectionDeadlines
    /// Buffered request bytes wait for the output to drain (see `process(now:)`).
    private var requestHeldForOutput = false
    private(set) var closeAfterFlush = false
    /// Close by half-closing and draining: the peer may still be sending bytes we never read, and closing
    /// outright would reset the connection and could destroy the response before the client reads it.
    private(set) var lingerOnClose = false
    private(set) var current: PendingRequest?
    /// A response waiting for its gate (see `ResponseGate`); nothing after it is handled until it goes.
    private(set) var held: HeldResponse?
    private var lastReceiveAt: UInt64
    private var requestStartedAt: UInt64
    /// The request ID of the last answer queued, for the line that says answers were not delivered when the write
    /// deadline cuts the connection: their access lines, written as they were queued, say they were sent.
    private(set) var lastQueuedRequestID: String?

    init(services: LoopServices, remoteAddress: String, now: UInt64) {
        self.services = services
        self.remoteAddress = remoteAddress
        self.parser = HTTPRequestParser(limits: services.shared.configuration.parserLimits)
        self.deadlines = ConnectionDeadlines(timeouts: services.shared.deadlineTimeouts, openedAt: now)
        self.lastReceiveAt = now
        self.requestStartedAt = now
    }

    struct HeldResponse {
        let response: HTTPResponse
        let pending: PendingRequest
        let gate: ResponseGate
    }

    var wantsRead: Bool { !closeAfterFlush && held == nil && output.byteCount < Self.outputHighWater }

    /// Nothing received, nothing owed: safe to close without losing a request.
    var isIdle: Bool { parser.isIdle && current == nil && held == nil && output.isEmpty }
    /// Part of a request arrived (its head, or its head and part of its body), not all of it, and it was not
    /// answered (an early refusal closes after its answer, with its body still to come).
    private var hasIncompleteRequest: Bool { (!parser.isIdle || current != nil) && !closeAfterFlush }
    private var incompleteRequestCounted = false

    /// Counts, once, a request the client closed or reset the connection on part-way: it gets no answer and no
    /// access-log line (2,600 such aborts left no trace; soak probe, 6 December). Called as the connection closes,
    /// when every complete request buffered has been handled, so that one held back behind unsent output is not
    /// taken for it; a reset may drop such requests too, and then counts as one.
    mutating func noteIncompleteRequestOnClose() {
        guard hasIncompleteRequest, !incompleteRequestCounted else { return }
        incompleteRequestCounted = true
        services.shared.incompleteRequests.increment()
    }

    /// The request deadline ran out on a client that has half-closed: the rest of its request can never come, and a
    /// 408 would be an answer to nobody (second regression probe, 6 December: it was sent and logged, after the
    /// request was counted incomplete). It is counted as incomplete; what is queued is sent and the connection closes.
    mutating func requestTimedOutAfterPeerClosed() {
        noteIncompleteRequestOnClose()
        current = nil
        deadlines.requestCompleted()
        closeAfterFlush = true
        lingerOnClose = false
    }

    var heldGate: ResponseGate? { held?.gate }

    mutating func receive(_ bytes: UnsafeRawBufferPointer, now: UInt64) {
        guard !closeAfterFlush, !bytes.isEmpty else { return }
        let wasIdle = parser.isIdle && current == nil && held == nil && output.isEmpty
        let idleDeadline = deadlines.idle
        if parser.isIdle && current == nil {
            requestStartedAt = now
            deadlines.requestStarted(at: now)
        }
        lastReceiveAt = now
        parser.append(bytes)
        process(now: now)
        // Only empty lines came (ignored before a request line, RFC 9112 §2.2): no request began, so no request
        // deadline may end in a 408 nobody asked for. The connection stays idle with the deadline it had, which
        // more empty lines cannot push back.
        if wasIdle && parser.isIdle && current == nil && held == nil && output.isEmpty && !closeAfterFlush {
            deadlines.inputIgnored(idleDeadline: idleDeadline, at: now)
        }
    }

    enum FlushOutcome: Equatable {
        /// Everything written; keep the connection.
        case open
        /// The socket is full; wait for EPOLLOUT.
        case blocked
        case failed
        case close
        /// Close by half-closing and draining what the peer still sends.
        case linger
    }

    /// Writes queued output and, as it drains, handles pipelined requests held back by the high-water mark.
    mutating func flush(to fd: Int32, now: UInt64, peerClosed: Bool, draining: Bool) -> FlushOutcome {
        while true {
            if !output.isEmpty {
                switch output.flush(to: fd) {
                case .blocked:
                    deadlines.writeBlocked(at: now)
                    return .blocked
                case .failed:
                    return .failed
                case .drained:
                    break
                }
            }
            outputDrained(now: now)
            if requestHeldForOutput {
                requestHeldForOutput = false
                if !parser.isIdle || current != nil { deadlines.requestStarted(at: now) }
            }
            if closeAfterFlush {
                return lingerOnClose && !peerClosed ? .linger : .close
            }
            if parser.bufferedByteCount > 0 {
                process(now: now)
                if !output.isEmpty || closeAfterFlush { continue }
            }
            // A held response is still owed, even to a peer that has stopped sending.
            if held != nil { return .open }
            // Every complete request buffered is answered and sent: what the parser still holds is the start of
            // one that can never end.
            if peerClosed { noteIncompleteRequestOnClose() }
            return peerClosed || (draining && isIdle) ? .close : .open
        }
    }

    /// Handles every complete request already buffered, until output backs up or the connection must close.
    mutating func process(now: UInt64) {
        while !closeAfterFlush && held == nil && output.byteCount < Self.outputHighWater {
            guard let event = parser.next() else { break }
            switch event {
            case .head(let head): begin(head)
            case .complete(let body): finish(body: body)
            case .failure(let error): fail(error)
            }
        }
        // A request waiting behind output that has not drained is held by the server, not by the client: its
        // deadline would otherwise run out for a client that sent everything at once and reads at a modest rate
        // (a false 408). The write deadline bounds the wait; reading resumes, and the request's deadline starts
        // afresh, once the output drains.
        if output.byteCount >= Self.outputHighWater && !closeAfterFlush && held == nil && (!parser.isIdle || current != nil) {
            deadlines.requestCompleted()
            requestHeldForOutput = true
        }
    }

    /// The event loop wrote everything queued.
    mutating func outputDrained(now: UInt64) {
        deadlines.writeDrained()
        if parser.isIdle && current == nil && held == nil && !closeAfterFlush {
            // No request is under way: a deadline started for bytes that turned out to be empty lines behind the
            // last request (RFC 9112 §2.2) ends here, or it would answer 408 on an idle connection.
            deadlines.requestCompleted()
            deadlines.becameIdle(at: now)
        }
    }

    /// The request deadline passed before the request was complete.
    mutating func requestTimedOut() {
        guard !closeAfterFlush else { return }
        let pending = current
        current = nil
        send(
            ErrorResponder.response(for: HTTPError(.requestTimeout, slug: "request-timeout",
                detail: "The request was not received in full in time.")),
            pending: pending, requestID: pending?.requestID ?? services.requestIDs.generate(), forceClose: true)
    }

    /// A refusal of one request header field, named in `errors[]` by its name as a refused field line is.
    static func headerRefusal(
        _ status: HTTPStatus, slug: String, field: String, detail: String, headers: HTTPFields = HTTPFields()
    ) -> HTTPError {
        var problem = ProblemDetails(slug: slug, status: status, detail: detail)
        problem.errors = [ProblemDetails.FieldError(pointer: field, detail: detail, location: .header)]
        return HTTPError(status, problem: problem, headers: headers)
    }

    /// Whether every coding listed is `identity` (RFC 9110 section 8.4: a list, possibly over several lines).
    static func isIdentityCoded(_ values: [String]) -> Bool {
        values.allSatisfy { value in
            value.split(separator: ",").allSatisfy { $0.trimmingWhitespace().equalsIgnoringASCIICase("identity") }
        }
    }

    private mutating func begin(_ head: HTTPRequestHead) {
        // Two lines are one comma-joined value (RFC 9110 section 5.3), which is no acceptable ID: a fresh one then.
        var incomingID = head.headers["X-Request-ID"]
        if incomingID != nil, head.headers.count(of: "X-Request-ID") > 1 { incomingID = nil }
        let requestID = services.requestIDs.requestID(incoming: incomingID)
        let resolution = services.router.resolve(method: head.method, path: head.path)
        var routeTemplate = "-"
        var earlyError: (any HTTPResponseError)?
        var bodyLimit = services.defaultBodyLimit
        var bodyReservation: BodyBudget.Reservation?
        switch resolution {
        case .found(let route, let parameters), .headViaGet(let route, let parameters):
            routeTemplate = route.template.text
            bodyLimit = route.options.bodyLimit ?? services.defaultBodyLimit
            if head.method == .get || head.method == .head {
                // Content has no meaning in these (RFC 9110 §9.3.1, §9.3.2) and no route reads it: no more than a
                // read buffer holds anyway, so it never reserves from a body budget. Keyless GETs declaring 60 KB
                // bodies they never sent held the whole budget of 8-64 KiB bodies, and label uploads got 503
                // (security probe, 6 December).
                bodyLimit = min(bodyLimit, BodyBudget.reservedAbove)
            }
            if head.hasBody, let check = route.options.checkBeforeBody, let refusal = check(head.headers) {
                earlyError = refusal
            } else if head.hasBody, let check = route.options.checkBeforeAwaitingBody, !bodyHasArrived(head),
                let refusal = check(head.headers)
            {
                earlyError = refusal
            } else if case .contentLength(let length) = head.framing, length > bodyLimit {
                earlyError = HTTPParseError.bodyTooLarge
            } else if head.hasBody && (!route.options.accepts(contentType: head.headers["Content-Type"])
                || route.options.acceptedContentTypes != nil && head.headers.count(of: "Content-Type") > 1) {
                // Two lines are one comma-joined value (RFC 9110 section 5.3), which is no media type at all.
                earlyError = Self.headerRefusal(
                    .unsupportedMediaType, slug: "unsupported-media-type", field: "Content-Type",
                    detail: "This route accepts \(route.options.acceptedContentTypes?.joined(separator: ", ") ?? "") in UTF-8.")
            } else if head.hasBody && head.headers.contains("Content-Encoding")
                && !Self.isIdentityCoded(head.headers.values(for: "Content-Encoding")) {
                // No route decodes gzip or br; reading such a body as it stands would misreport it (RFC 9110
                // section 8.4.1 names 415 for a content coding the server does not take, and section 15.5.16 has
                // the answer say, in Accept-Encoding, which codings would do).
                earlyError = Self.headerRefusal(
                    .unsupportedMediaType, slug: "unsupported-media-type", field: "Content-Encoding",
                    detail: "Content codings are not accepted: send the body without Content-Encoding.",
                    headers: ["Accept-Encoding": "identity"])
            }
            if earlyError == nil, head.hasBody, let bytes = Self.reservedBodyBytes(head.framing, limit: bodyLimit) {
                let budget = bytes > BodyBudget.largeAbove ? services.shared.bodyBudget : services.shared.smallBodyBudget
                bodyReservation = budget.reserve(bytes)
                if bodyReservation == nil {
                    services.shared.bodyBudgetRefusals.increment()
                    earlyError = HTTPError(
                        .serviceUnavailable, slug: "server-busy",
                        detail: "The server holds as many request bodies of this size as it may at once; send this one again shortly (Retry-After).",
                        headers: ["Retry-After": "1"])
                }
            }
            func refusalWithoutContent() -> (any HTTPResponseError)? {
                let withoutContent = HTTPRequest(
                    method: head.method, target: head.target, path: head.path, query: head.query,
                    version: head.version, headers: head.headers)
                return route.options.checkBeforeContent?(withoutContent, parameters)
            }
            var contentFreeChecked = false
            if earlyError == nil, head.hasBody, head.expectsContinue || !bodyHasArrived(head) {
                // What the route refuses from the header section alone is said now, rather than inviting a body it
                // would not read (`100 Continue`) or waiting for one (RFC 9110 §10.1.1: the header section decides).
                earlyError = refusalWithoutContent()
                contentFreeChecked = true
            }
            if earlyError == nil, head.method != .get, head.method != .head, Preconditions.applies(to: head.headers) {
                // An unsafe method must not run when its condition fails (RFC 9110 §13.1.1), so this is decided
                // before the handler; GET and HEAD are decided on the handler's answer (see `finish`).
                if conditionsFail(head) {
                    // Checked above already, and found nothing to refuse, when the body was still to come.
                    let refusal = contentFreeChecked ? nil : refusalWithoutContent()
                    earlyError = refusal ?? Preconditions.failure
                }
            }
            // A `100 Continue` invites the body, so it is an answer from the header section too (RFC 9110 §10.1.1:
            // a status the header section decides is sent instead of it).
            if earlyError != nil || (head.expectsContinue && head.hasBody),
                let check = route.options.checkBeforeEarlyAnswer, let refusal = check(head.headers)
            {
                earlyError = refusal
            }
        case .automaticOptions:
            routeTemplate = services.router.templateText(at: head.path) ?? routeTemplate
            // Its answer is a 2xx, so its conditions are judged as an unsafe method's are (RFC 9110 §13.2.1): they
            // were ignored, and `If-Match: "x"` got 204 (HTTP probe, 7 December).
            if Preconditions.applies(to: head.headers), conditionsFail(head) {
                // What is refused without the condition still comes first, as for a route's method: a declared body
                // over the limit is 413, not 412 (regression probe, 7 December).
                if case .contentLength(let length) = head.framing, length > bodyLimit {
                    earlyError = HTTPParseError.bodyTooLarge
                } else {
                    earlyError = Preconditions.failure
                }
            }
        case .methodNotAllowed(let allow):
            routeTemplate = services.router.templateText(at: head.path) ?? routeTemplate
            earlyError = HTTPError(
                .methodNotAllowed, slug: "method-not-allowed",
                detail: "This path does not serve this method; it serves \(allow) (the Allow field).",
                headers: ["Allow": allow])
        case .methodNotImplemented:
            earlyError = HTTPError(
                .notImplemented, slug: "method-not-implemented",
                detail: "The server does not implement this method on any path.")
        case .notFound:
            // The path is not quoted back: it may hold a ref a client meant for another route.
            earlyError = HTTPError(.notFound, slug: "not-found", detail: "No route matches this request's path.")
        }
        let pending = PendingRequest(
            head: head, requestID: requestID, resolution: resolution, routeTemplate: routeTemplate,
            earlyError: earlyError, receivedAt: requestStartedAt)
        pending.bodyReservation = bodyReservation
        parser.bodyLimit = bodyLimit
        if let earlyError, head.hasBody {
            // A body already in hand, within the limit, is read and set aside, so that the answer keeps the
            // connection: a client's pool should not lose it to a 404 or a 415. One still to come is not waited for:
            // the answer goes now, and the connection then closes lingeringly. A client that sent
            // `Expect: 100-continue` and its body without waiting is no different: the framing is whole.
            if case .contentLength(let length) = head.framing, length <= bodyLimit,
                parser.bufferedByteCount >= length
            {
                current = pending
                return
            }
            send(ErrorResponder.response(for: earlyError), pending: pending, requestID: requestID, forceClose: true)
            return
        }
        current = pending
        if head.expectsContinue && head.hasBody {
            output.append(ResponseSerializer.continueLine)
        }
    }

    /// What a body takes from the server's `BodyBudget`: its declared length, or for a chunked body the most the
    /// route allows, when that can be over `BodyBudget.reservedAbove`; nil for a body that needs no reservation.
    static func reservedBodyBytes(_ framing: BodyFraming, limit: Int) -> Int? {
        switch framing {
        case .contentLength(let length): length > BodyBudget.reservedAbove && length <= limit ? length : nil
        case .chunked: limit > BodyBudget.reservedAbove ? limit : nil
        case .none: nil
        }
    }

    /// Whether the whole body of the request whose head was just parsed is already buffered (a chunked body is
    /// known to be whole only once read, so it counts as still to come).
    private func bodyHasArrived(_ head: HTTPRequestHead) -> Bool {
        guard case .contentLength(let length) = head.framing else { return false }
        return parser.bufferedByteCount >= length
    }

    private mutating func finish(body: [UInt8]) {
        guard let pending = current else { return }
        current = nil
        deadlines.requestCompleted()
        var response: HTTPResponse
        if let earlyError = pending.earlyError {
            response = ErrorResponder.response(for: earlyError)
        } else {
            switch pending.resolution {
            case .found(let route, let parameters), .headViaGet(let route, let parameters):
                let head = pending.head
                let request = HTTPRequest(
                    method: head.method, target: head.target, path: head.path, query: head.query,
                    version: head.version, headers: head.headers, body: body)
                let context = RequestContext(
                    requestID: pending.requestID, routeTemplate: pending.routeTemplate, parameters: parameters,
                    receivedAt: pending.receivedAt, remoteAddress: remoteAddress, loopTasks: services.tasks)
                response = respond(to: request, context: context, handler: route.handler)
                if head.method == .get || head.method == .head, (200..<300).contains(response.status.code),
                    response.gate == nil, Preconditions.applies(to: head.headers)
                {
                    response = Self.applyingPreconditions(to: response, headers: head.headers, method: head.method)
                }
            case .automaticOptions(let allow):
                response = HTTPResponse(status: .noContent, headers: ["Allow": allow])
            case .methodNotAllowed, .methodNotImplemented, .notFound:
                response = ErrorResponder.response(for: HTTPError(.internalServerError, slug: "internal-error"))
            }
        }
        if let gate = response.gate {
            switch gate.settlement {
            case nil:
                held = HeldResponse(response: response, pending: pending, gate: gate)
                return
            case .open:
                break
            case .replaced(let replacement):
                response = replacement
            }
        }
        send(response, pending: pending, requestID: pending.requestID, forceClose: false)
        resumePipelining()
    }

    /// Whether a method other than GET and HEAD must not be performed (RFC 9110 §13.2.2), judged before any
    /// handler runs: the target has a current representation when its path answers GET, and no entity tag is known
    /// without running that GET, so only `*` can match.
    private func conditionsFail(_ head: HTTPRequestHead) -> Bool {
        var hasRepresentation = false
        if case .found = services.router.resolve(method: .get, path: head.path) { hasRepresentation = true }
        return Preconditions.evaluate(head.headers, method: head.method, hasRepresentation: hasRepresentation) != .proceed
    }

    /// A safe method's conditions are judged on its answer: only a 2xx would have been sent without them
    /// (RFC 9110 §13.2.1), and the answer shows that the target has a current representation.
    private static func applyingPreconditions(to response: HTTPResponse, headers: HTTPFields, method: HTTPMethod) -> HTTPResponse {
        switch Preconditions.evaluate(headers, method: method, hasRepresentation: true, entityTag: response.headers["ETag"]) {
        case .proceed:
            return response
        case .failed:
            return ErrorResponder.response(for: Preconditions.failure)
        case .notModified:
            // RFC 9110 §15.4.5: the fields a 200 would carry for caches (Cache-Control, Vary), without content
            // or the metadata that describes it.
            var fields = response.headers
            fields.remove("Content-Type")
            return HTTPResponse(status: .notModified, headers: fields)
        }
    }

    /// Sends the held response (or its replacement) once its gate has settled, then goes on with any pipelined
    /// requests already buffered. Does nothing while the gate is still closed.
    mutating func releaseHeld(now: UInt64) {
        guard let held, let settlement = held.gate.settlement else { return }
        self.held = nil
        var response = held.response
        if case .replaced(let replacement) = settlement { response = replacement }
        send(response, pending: held.pending, requestID: held.pending.requestID, forceClose: false)
        resumePipelining()
        process(now: now)
    }

    private mutating func resumePipelining() {
        if !closeAfterFlush && !parser.isIdle {
            // A pipelined request is already partly here: its deadline runs from when those bytes arrived.
            requestStartedAt = lastReceiveAt
            deadlines.requestStarted(at: lastReceiveAt)
        }
    }

    private mutating func fail(_ error: HTTPParseError) {
        let pending = current
        current = nil
        var response = ErrorResponder.response(for: error)
        if var field = parser.faultyField {
            // A name shaped like an API key's secret is one sent in the wrong place: not repeated, as such an
            // X-Request-ID is not kept (HTTP regression probe, 7 December).
            if let name = field.name, services.requestIDs.refuses(name) { field.name = nil }
            var problem = error.problem
            problem.errors = [field.fieldError(for: error)]
            response = ErrorResponder.problemResponse(status: error.status, problem: problem, headers: error.headers)
        }
        // A chunked body over the limit is found only while it is read; the route's check still answers first, as
        // it does for a declared length over the limit (a client without access learns that, not the size).
        if error == .bodyTooLarge, let pending, let check = pending.resolution.route?.options.checkBeforeEarlyAnswer,
            let refusal = check(pending.head.headers)
        {
            response = ErrorResponder.response(for: refusal)
        }
        send(response, pending: pending, requestID: pending?.requestID ?? services.requestIDs.generate(), forceClose: true)
    }

    /// Runs the middleware chain around the handler; any thrown error becomes a response here.
    private func respond(to request: HTTPRequest, context: RequestContext, handler: HTTPHandler) -> HTTPResponse {
        let middlewares = services.router.middlewares
        func step(_ index: Int, _ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
            if index == middlewares.count { return try handler(request, context) }
            return try middlewares[index].handle(request, context: context) { try step(index + 1, $0, $1) }
        }
        services.shared.inFlight.increment()
        defer { services.shared.inFlight.decrement() }
        do {
            return try step(0, request, context)
        } catch {
            return ErrorResponder.response(for: error)
        }
    }

    private mutating func send(_ response: HTTPResponse, pending: PendingRequest?, requestID: String, forceClose: Bool) {
        let keepAlive = !forceClose && (pending?.head.keepAlive ?? false) && !services.isDraining
        let isHead = (pending.map { $0.head.method } ?? parser.methodSoFar) == .head
        let framing = ResponseSerializer.Framing(
            requestID: requestID, keepAlive: keepAlive, requestVersion: pending?.head.version ?? .http1_1,
            isHeadRequest: isHead, defaultCacheControlLine: services.defaultCacheControlLine)
        // A 1xx, 204 or 304 carries no content whatever a handler put in the body: sent without a length, it
        // would be read as the start of the next response.
        let sendsBody = !isHead && !response.status.forbidsContent
        let inlineBody = sendsBody && response.body.count <= ResponseSerializer.inlineBodyLimit
        output.append(
            ResponseSerializer.head(
                for: response, framing: framing, dateLine: services.date.line, includingBody: inlineBody))
        if sendsBody && !inlineBody { output.append(response.body) }
        if !keepAlive {
            // No further request will be read, so no request deadline may fire behind this response.
            deadlines.requestCompleted()
            closeAfterFlush = true
            lingerOnClose = forceClose || parser.bufferedByteCount > 0
        }

        noteAnswer(response, pending: pending, requestID: requestID, bytes: isHead ? 0 : response.body.count)
        lastQueuedRequestID = requestID
    }

    /// The held answer of a connection that closed before it settled (its client reset or hung up while the store
    /// committed): counted and logged once it settles, as a sent one is, with `clientGone`, since what it stands for
    /// happened (an evaluation recorded, a report stored) even though no byte of it reached the client. Before, it
    /// was neither logged nor counted: 2% of the evaluations stored under a reset storm had no line (soak probe,
    /// 5 December). Nothing when the gate has not settled.
    mutating func noteAbandonedHeld() {
        guard let held, let settlement = held.gate.settlement else { return }
        self.held = nil
        var response = held.response
        if case .replaced(let replacement) = settlement { response = replacement }
        noteAnswer(response, pending: held.pending, requestID: held.pending.requestID, bytes: 0, clientGone: true)
    }

    /// Counts the answer in the route's metrics and writes its access-log line.
    private func noteAnswer(
        _ response: HTTPResponse, pending: PendingRequest?, requestID: String, bytes: Int, clientGone: Bool = false
    ) {
        let finishedAt = MonotonicClock.now()
        let startedAt = pending?.receivedAt ?? requestStartedAt
        let duration = finishedAt >= startedAt ? finishedAt - startedAt : 0
        let route = pending?.routeTemplate ?? "-"
        let method = pending?.head.method.rawValue ?? "-"
        services.record(
            route: route, method: method, status: response.status.code, durationNanoseconds: duration,
            simulated: response.isSimulated)
        if services.accessLog && services.admitsAccessLogLine(status: response.status.code) {
            var line = AccessLogLine(
                requestID: requestID, method: method, route: route, status: response.status.code,
                durationNanoseconds: duration, bytes: bytes, simulated: response.isSimulated)
            line.clientGone = clientGone
            if let identity = services.shared.accessLogIdentity, let headers = pending?.head.headers,
               let claimed = identity.claimed(headers) {
                line.identity = (identity.field, claimed)
            }
            services.shared.logSink.write(line: line.render())
        }
    }
}
