/// A request whose head has been parsed and routed, waiting for its body.
struct PendingRequest {
    var head: HTTPRequestHead
    var requestID: String
    var resolution: RouteResolution
    var routeTemplate: String
    /// Decided from the head alone (404, 405, 413 by Content-Length, 415): no handler runs.
    var earlyError: (any HTTPResponseError)?
    var receivedAt: UInt64
}
