import HTTPServer
import InsightCore

extension AccessLogIdentity {
    /// The key ID a request's Bearer credential names, as `keyID` on its access-log line: a 401 for a wrong secret
    /// shows the key it named, a 429 the key that ran out. Requests with no credential of our shape, or with two
    /// `Authorization` fields (refused), show none. Never any part of the secret.
    public static let keyID = AccessLogIdentity(field: "keyID") { headers in
        guard headers.count(of: "Authorization") == 1 else { return nil }
        return Authenticator.claimedKeyID(authorization: headers["Authorization"])
    }
}
