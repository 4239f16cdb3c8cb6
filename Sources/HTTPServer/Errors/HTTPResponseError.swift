/// An error that knows the response it stands for. The server turns any thrown error into a response in one
/// place (`ErrorResponder`): conforming errors become their problem document, anything else a bare 500.
public protocol HTTPResponseError: Error {
    var status: HTTPStatus { get }
    var problem: ProblemDetails { get }
    var headers: HTTPFields { get }
}

extension HTTPResponseError {
    public var headers: HTTPFields { HTTPFields() }
}

extension HTTPResponseError {
    /// The response the server would send had this error been thrown: for a `ResponseGate` replacement.
    public var response: HTTPResponse { ErrorResponder.response(for: self) }
}
