import HTTPServer
import InsightCore

/// Authenticates a request for a route's roles; every API route starts here.
struct RouteAccess: Sendable {
    let authenticator: Authenticator

    func principal(_ request: HTTPRequest, roles: Set<KeyRole>, now: Int64) throws(ServiceProblem) -> Principal {
        do {
            return try authenticator.authenticate(authorization: request.headers["Authorization"], roles: roles, now: now)
        } catch {
            throw ServiceProblem(error)
        }
    }
}

enum MediaType {
    static let json = ["application/json"]
}
