/// How the body of a request is delimited (RFC 9112 §6.3).
enum BodyFraming: Equatable, Sendable {
    case none
    case contentLength(Int)
    case chunked
}

/// A parsed and validated header section, delivered before the body so that routing and limits can run first.
struct HTTPRequestHead: Equatable, Sendable {
    var method: HTTPMethod
    var target: String
    var path: String
    var query: String?
    var version: HTTPVersion
    var headers: HTTPFields
    var framing: BodyFraming
    var keepAlive: Bool
    var expectsContinue: Bool

    var hasBody: Bool {
        switch framing {
        case .none: false
        case .contentLength(let length): length > 0
        case .chunked: true
        }
    }
}

/// What the parser produced from the bytes so far.
enum HTTPParserEvent: Equatable, Sendable {
    case head(HTTPRequestHead)
    /// The end of the message with its decoded body; trailers are validated and dropped.
    case complete(body: [UInt8])
    case failure(HTTPParseError)
}
