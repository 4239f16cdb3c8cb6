/// A complete request: head and the whole (decoded) body.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request-target exactly as received.
    public var target: String
    /// The path of the target, without the query, still percent-encoded.
    public var path: String
    /// The query without the `?`, still percent-encoded; nil when the target has no `?`.
    public var query: String?
    public var version: HTTPVersion
    public var headers: HTTPFields
    public var body: [UInt8]

    public init(
        method: HTTPMethod, target: String, path: String, query: String?, version: HTTPVersion = .http1_1,
        headers: HTTPFields = HTTPFields(), body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
    }
}
