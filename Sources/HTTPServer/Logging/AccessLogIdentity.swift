/// Who a request says it comes from, as the access log shows it: one more field on each `request` line, so that a
/// burst of 401s or 429s can be traced to a client from the log alone. The server knows nothing of credentials;
/// the application that does supplies the field's name and how to read it from the header section. It must never
/// return a secret, and what it returns is a claim: the line shows it for refused credentials too.
public struct AccessLogIdentity: Sendable {
    /// The JSON member name, such as `keyID`.
    public let field: String
    /// The identity the header section names, or nil when it names none that may be logged.
    public let claimed: @Sendable (HTTPFields) -> String?

    public init(field: String, claimed: @escaping @Sendable (HTTPFields) -> String?) {
        self.field = field
        self.claimed = claimed
    }
}
