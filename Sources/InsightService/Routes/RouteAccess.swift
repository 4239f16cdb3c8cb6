import HTTPServer
import InsightCore

/// Authenticates a request for a route's roles; every API route starts here.
struct RouteAccess: Sendable {
    let authenticator: Authenticator

    func principal(_ request: HTTPRequest, roles: Set<KeyRole>, now: Int64) throws(ServiceProblem) -> Principal {
        // Two credentials have no one meaning; taking the first would let a proxy's line override the app's.
        if request.headers.count(of: "Authorization") > 1 {
            throw .invalidHeader(name: "Authorization", detail: "appears more than once; send one Bearer credential")
        }
        do {
            return try authenticator.authenticate(authorization: request.headers["Authorization"], roles: roles, now: now)
        } catch {
            throw ServiceProblem(error)
        }
    }

    /// The principal of a request that only `role` may make (most routes have one role).
    func principal(_ request: HTTPRequest, role: KeyRole, now: Int64) throws(ServiceProblem) -> Principal {
        try principal(request, roles: Self.only(role), now: now)
    }

    // Built once: a set literal at the call site allocated its storage on every request.
    private static let onlyClient: Set<KeyRole> = [.client]
    private static let onlyPartner: Set<KeyRole> = [.partner]
    private static let onlyAnalyst: Set<KeyRole> = [.analyst]

    private static func only(_ role: KeyRole) -> Set<KeyRole> {
        switch role {
        case .client: onlyClient
        case .partner: onlyPartner
        case .analyst: onlyAnalyst
        }
    }
}

enum MediaType {
    static let json = ["application/json"]
}
