/// A request method token (RFC 9110 §9). Methods are case-sensitive, so `get` is not `GET`.
public struct HTTPMethod: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let connect = HTTPMethod(rawValue: "CONNECT")
    public static let trace = HTTPMethod(rawValue: "TRACE")
    /// The safe method with a body (draft-ietf-httpbis-safe-method-w-body): clients and scanners use it, so a
    /// known path answers it 405 with `Allow`, not 501.
    public static let query = HTTPMethod(rawValue: "QUERY")
}
