import HTTPServer
import InsightCore

/// Authenticates a request for a route's roles; every API route starts here.
struct RouteAccess: Sendable {
    let authenticator: Authenticator

    func principal(_ request: HTTPRequest, roles: Set<KeyRole>, now: Int64) throws(ServiceProblem) -> Principal {
        try principal(headers: request.headers, roles: roles, now: now)
    }

    func principal(
        headers: HTTPFields, roles: Set<KeyRole>, now: Int64, admittingSuspended: Bool = false
    ) throws(ServiceProblem) -> Principal {
        // Two credentials have no one meaning; taking the first would let a proxy's line override the app's.
        if headers.count(of: "Authorization") > 1 {
            throw .invalidHeader(name: "Authorization", detail: "appears more than once; send one Bearer credential")
        }
        let authorization = headers["Authorization"]
        do {
            return try authenticator.authenticate(
                authorization: authorization, roles: roles, now: now, admittingSuspended: admittingSuspended)
        } catch {
            throw ServiceProblem(error, presentedBearer: authorization.map(Authenticator.namesBearerScheme) ?? false)
        }
    }

    /// The same check on the header section alone, for `RouteOptions.checkBeforeBody`: a route that takes large
    /// bodies refuses a missing, wrong or other role's key before reading them. Also for
    /// `RouteOptions.checkBeforeEarlyAnswer`, so that 401 and 403 come before 415, 413, 412 and `100 Continue`.
    func refusalBeforeBody(role: KeyRole, admittingSuspended: Bool = false) -> @Sendable (HTTPFields) -> (any HTTPResponseError)? {
        refusalBeforeBody(roles: Self.only(role), admittingSuspended: admittingSuspended)
    }

    func refusalBeforeBody(roles: Set<KeyRole>, admittingSuspended: Bool = false) -> @Sendable (HTTPFields) -> (any HTTPResponseError)? {
        let access = self
        return { headers in
            do throws(ServiceProblem) {
                _ = try access.principal(
                    headers: headers, roles: roles, now: Clock.nowMilliseconds(), admittingSuspended: admittingSuspended)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Options for a `GET` route: a body it never reads may still be over the limit or coded (`413`, `415`), and
    /// the key is judged first there too, as on the routes that take a body (HTTP probe, 6 December: a `GET` with
    /// a 100 KB body and no key was `413`, not `401`).
    /// The `GET` routes read no body, but a client may send one: the key is checked before waiting for it too, so
    /// one without a key is told 401 at once rather than a 408 when the request deadline passes (security probe,
    /// 6 December).
    /// `checkBeforeContent`: the route's refusals of its query and path, said then too, after the key (API.md).
    func getOptions(
        roles: Set<KeyRole>, admittingSuspended: Bool = false,
        checkBeforeContent: (@Sendable (HTTPRequest, [String: String]) -> (any HTTPResponseError)?)? = nil
    ) -> RouteOptions {
        let refusal = refusalBeforeBody(roles: roles, admittingSuspended: admittingSuspended)
        return RouteOptions(
            checkBeforeAwaitingBody: refusal, checkBeforeEarlyAnswer: refusal, checkBeforeContent: checkBeforeContent)
    }

    func getOptions(
        role: KeyRole, admittingSuspended: Bool = false,
        checkBeforeContent: (@Sendable (HTTPRequest, [String: String]) -> (any HTTPResponseError)?)? = nil
    ) -> RouteOptions {
        getOptions(roles: Self.only(role), admittingSuspended: admittingSuspended, checkBeforeContent: checkBeforeContent)
    }

    /// The principal of a request that only `role` may make (most routes have one role). `admittingSuspended`:
    /// the route serves keys suspended for not reporting consumption too (see `Principal.isSuspended`).
    func principal(
        _ request: HTTPRequest, role: KeyRole, now: Int64, admittingSuspended: Bool = false
    ) throws(ServiceProblem) -> Principal {
        try principal(headers: request.headers, roles: Self.only(role), now: now, admittingSuspended: admittingSuspended)
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
