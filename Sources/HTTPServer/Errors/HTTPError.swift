/// A ready-made `HTTPResponseError` for handlers that need no error type of their own.
public struct HTTPError: HTTPResponseError, Sendable {
    public var status: HTTPStatus
    public var problem: ProblemDetails
    public var headers: HTTPFields

    public init(_ status: HTTPStatus, slug: String, detail: String? = nil, headers: HTTPFields = HTTPFields()) {
        self.status = status
        self.problem = ProblemDetails(slug: slug, status: status, detail: detail)
        self.headers = headers
    }

    public init(_ status: HTTPStatus, problem: ProblemDetails, headers: HTTPFields = HTTPFields()) {
        self.status = status
        self.problem = problem
        self.headers = headers
    }
}
