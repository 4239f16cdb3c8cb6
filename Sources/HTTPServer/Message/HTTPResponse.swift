/// A complete response. The server adds framing fields (Content-Length, Connection, Date, X-Request-ID) itself
/// and ignores any of those set here, so a handler cannot desynchronise the connection.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPFields
    public var body: [UInt8]
    /// When set, the server sends this response only once the gate opens (see `ResponseGate`).
    public var gate: ResponseGate?
    /// An answer the client asked to be simulated (an application's test mode forcing an error, say), not one the
    /// server came to: counted in `http_simulated_responses_total` instead of the request metrics, and marked in the
    /// access log, so that a forced 503 does not read as a failure to an operator's alert.
    public var isSimulated = false

    public init(status: HTTPStatus = .ok, headers: HTTPFields = HTTPFields(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func json(_ status: HTTPStatus = .ok, _ body: [UInt8], headers: HTTPFields = HTTPFields()) -> Self {
        var fields = headers
        fields.set("Content-Type", "application/json")
        return HTTPResponse(status: status, headers: fields, body: body)
    }

    public static func text(_ status: HTTPStatus = .ok, _ text: String, headers: HTTPFields = HTTPFields()) -> Self {
        var fields = headers
        fields.set("Content-Type", "text/plain; charset=utf-8")
        return HTTPResponse(status: status, headers: fields, body: Array(text.utf8))
    }

    /// An `application/problem+json` response, rendered the same way the server renders thrown errors.
    public static func problem(_ problem: ProblemDetails, headers: HTTPFields = HTTPFields()) -> Self {
        let status = HTTPStatus.known(code: problem.status) ?? HTTPStatus(code: problem.status, reasonPhrase: problem.title)
        return ErrorResponder.problemResponse(status: status, problem: problem, headers: headers)
    }
}
