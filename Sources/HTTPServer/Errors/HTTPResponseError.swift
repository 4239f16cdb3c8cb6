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
