/// A handler called for a request; runs synchronously on the event loop thread.
public typealias HTTPHandler = @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse

/// One step of the responder chain: inspect or change the request, call `next`, inspect or change the response.
public protocol HTTPMiddleware: Sendable {
    func handle(
        _ request: HTTPRequest, context: RequestContext,
        next: (HTTPRequest, RequestContext) throws -> HTTPResponse
    ) throws -> HTTPResponse
}
