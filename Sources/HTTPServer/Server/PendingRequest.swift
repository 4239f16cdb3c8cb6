/// A request whose head has been parsed and routed, waiting for its body. A class: it is handed around several
/// times per request, and one retain is cheaper than copying its many fields each time.
final class PendingRequest {
    let head: HTTPRequestHead
    let requestID: String
    let resolution: RouteResolution
    let routeTemplate: String
    /// Decided from the head alone (404, 405, 413 by Content-Length, 415): no handler runs.
    let earlyError: (any HTTPResponseError)?
    let receivedAt: UInt64
    /// Room in the server's `BodyBudget` for a large body, given back when this request is dropped.
    var bodyReservation: BodyBudget.Reservation?

    init(
        head: HTTPRequestHead, requestID: String, resolution: RouteResolution, routeTemplate: String,
        earlyError: (any HTTPResponseError)?, receivedAt: UInt64
    ) {
        self.head = head
        self.requestID = requestID
        self.resolution = resolution
        self.routeTemplate = routeTemplate
        self.earlyError = earlyError
        self.receivedAt = receivedAt
    }
}
