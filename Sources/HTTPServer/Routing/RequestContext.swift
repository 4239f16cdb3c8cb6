/// What the server knows about a request besides the message itself.
public struct RequestContext: Sendable {
    public var requestID: String
    /// The matched route template, such as `/v1/evaluations/{evaluationID}/consumption`; "-" if unrouted.
    public var routeTemplate: String
    /// Path parameters by name, percent-decoded.
    public var parameters: [String: String]
    /// Monotonic nanoseconds at which the request's first byte arrived.
    public var receivedAt: UInt64
    /// The peer's address, for rate limiting only: never log or store it.
    public var remoteAddress: String
    /// The event loop's end-of-pass queue (`LoopTasks`); nil when the handler runs outside a server.
    public var loopTasks: LoopTasks?

    public init(
        requestID: String, routeTemplate: String = "-", parameters: [String: String] = [:], receivedAt: UInt64 = 0,
        remoteAddress: String = "", loopTasks: LoopTasks? = nil
    ) {
        self.requestID = requestID
        self.routeTemplate = routeTemplate
        self.parameters = parameters
        self.receivedAt = receivedAt
        self.remoteAddress = remoteAddress
        self.loopTasks = loopTasks
    }
}
