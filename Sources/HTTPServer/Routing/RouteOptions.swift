/// Per-route limits checked as soon as the header section is parsed, before the body is read.
public struct RouteOptions: Sendable {
    /// The largest decoded body accepted; nil means the server's `defaultBodyLimit`.
    public var bodyLimit: Int?
    /// Media types accepted for a request with a body, compared case-insensitively; nil accepts any. A body with
    /// a missing or other Content-Type gets 415, and so does a `charset` parameter other than UTF-8: the routes
    /// read their bodies as UTF-8 (RFC 8259 section 8.1) and would misread any other encoding.
    public var acceptedContentTypes: [String]?

    /// Runs on the header section of a request with a body, before the body is read (and before `100 Continue`):
    /// an error it returns is the answer, sent at once, and the body is never read. For a route whose body limit
    /// is large, so that a client without credentials cannot make the server take in megabytes first.
    public var checkBeforeBody: (@Sendable (HTTPFields) -> (any HTTPResponseError)?)?

    /// Runs on the header section only when the server is about to answer from it alone: a body refused unread
    /// (415 for its media type or content coding, 413 for its declared length), a failed precondition of an
    /// unsafe method (412), or a `100 Continue`. An error it returns is the answer instead. A route that
    /// authenticates in its handler sets it, so that a caller without access is told 401 or 403 whatever it sent,
    /// as with an acceptable body, and learns nothing of the route's rules; a request that passes those checks
    /// (nearly all) is not authenticated twice. `checkBeforeBody`, when set, runs before these checks anyway.
    public var checkBeforeEarlyAnswer: (@Sendable (HTTPFields) -> (any HTTPResponseError)?)?

    /// Runs when a precondition of an unsafe method fails, on the request as it stands without its content (the
    /// body is empty) and the path's parameters: the route's own refusals that need no content (of its query,
    /// path parameters or header fields) come before the precondition (RFC 9110 §13.2.1 has a server ignore
    /// preconditions when it would refuse the request anyway before processing its content). An error it returns
    /// is the answer instead of 412; `checkBeforeEarlyAnswer` still runs after it.
    public var checkBeforePreconditions: (@Sendable (HTTPRequest, [String: String]) -> (any HTTPResponseError)?)?

    public init(
        bodyLimit: Int? = nil, acceptedContentTypes: [String]? = nil,
        checkBeforeBody: (@Sendable (HTTPFields) -> (any HTTPResponseError)?)? = nil,
        checkBeforeEarlyAnswer: (@Sendable (HTTPFields) -> (any HTTPResponseError)?)? = nil,
        checkBeforePreconditions: (@Sendable (HTTPRequest, [String: String]) -> (any HTTPResponseError)?)? = nil
    ) {
        self.bodyLimit = bodyLimit
        self.acceptedContentTypes = acceptedContentTypes
        self.checkBeforeBody = checkBeforeBody
        self.checkBeforeEarlyAnswer = checkBeforeEarlyAnswer
        self.checkBeforePreconditions = checkBeforePreconditions
    }

    /// Whether a request with a body and this Content-Type value may proceed.
    func accepts(contentType: String?) -> Bool {
        guard let acceptedContentTypes else { return true }
        guard let contentType else { return false }
        // Clients nearly always send the media type exactly as listed: one comparison, no slicing.
        if acceptedContentTypes.contains(contentType) { return true }
        // The media type is what precedes any parameters (RFC 9110 section 8.3.1); sliced, not split, as this runs
        // on every request with a body.
        let end = contentType.utf8.firstIndex(of: UInt8(ascii: ";")) ?? contentType.endIndex
        let mediaType = contentType[..<end].trimmingWhitespace()
        guard acceptedContentTypes.contains(where: { mediaType.equalsIgnoringASCIICase($0) }) else { return false }
        return end == contentType.endIndex || Self.charsetIsUTF8(contentType[contentType.index(after: end)...])
    }

    /// True unless a `charset` parameter names something other than UTF-8 (quoted or not, any case).
    static func charsetIsUTF8(_ parameters: Substring) -> Bool {
        for parameter in parameters.split(separator: ";") {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingWhitespace().equalsIgnoringASCIICase("charset") else { continue }
            var value = parts[1].trimmingWhitespace()
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
            if !value.equalsIgnoringASCIICase("utf-8") && !value.equalsIgnoringASCIICase("utf8") { return false }
        }
        return true
    }
}
