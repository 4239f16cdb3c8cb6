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

    /// Runs on the header section of a request whose body has not all arrived with it, before the server waits
    /// for the rest: an error it returns is the answer, sent at once, and the connection then closes. For a route
    /// that authenticates in its handler, so that a caller without access neither holds a body buffer while it
    /// sends slowly nor waits out the request deadline for a 408. A body already here costs nothing more to
    /// read, so the check is skipped then (nearly every request) and the handler's own check decides, once.
    public var checkBeforeAwaitingBody: (@Sendable (HTTPFields) -> (any HTTPResponseError)?)?

    /// Runs on the header section only when the server is about to answer from it alone: a body refused unread
    /// (415 for its media type or content coding, 413 for its declared length), a failed precondition of an
    /// unsafe method (412), or a `100 Continue`. An error it returns is the answer instead. A route that
    /// authenticates in its handler sets it, so that a caller without access is told 401 or 403 whatever it sent,
    /// as with an acceptable body, and learns nothing of the route's rules; a request that passes those checks
    /// (nearly all) is not authenticated twice. `checkBeforeBody` and `checkBeforeAwaitingBody`, when set and
    /// due, run before these checks anyway.
    public var checkBeforeEarlyAnswer: (@Sendable (HTTPFields) -> (any HTTPResponseError)?)?

    /// The route's own refusals that need no content (of its query, path parameters or header fields), run on the
    /// request as it stands without its content (the body is empty) and the path's parameters. They run when a
    /// precondition of an unsafe method fails, and come before it (RFC 9110 §13.2.1 has a server ignore
    /// preconditions when it would refuse the request anyway before processing its content), and when the server
    /// would otherwise invite or wait for a body it would not read: before `100 Continue`, and when the body has
    /// not all arrived with the header section. An error it returns is the answer (`checkBeforeEarlyAnswer` still
    /// runs after it, so a missing key is told 401 first). With the body already here (nearly every request) it is
    /// not run: the handler makes the same checks, once.
    public var checkBeforeContent: (@Sendable (HTTPRequest, [String: String]) -> (any HTTPResponseError)?)?

    public init(
        bodyLimit: Int? = nil, acceptedContentTypes: [String]? = nil,
        checkBeforeBody: (@Sendable (HTTPFields) -> (any HTTPResponseError)?)? = nil,
        checkBeforeAwaitingBody: (@Sendable (HTTPFields) -> (any HTTPResponseError)?)? = nil,
        checkBeforeEarlyAnswer: (@Sendable (HTTPFields) -> (any HTTPResponseError)?)? = nil,
        checkBeforeContent: (@Sendable (HTTPRequest, [String: String]) -> (any HTTPResponseError)?)? = nil
    ) {
        self.bodyLimit = bodyLimit
        self.acceptedContentTypes = acceptedContentTypes
        self.checkBeforeBody = checkBeforeBody
        self.checkBeforeAwaitingBody = checkBeforeAwaitingBody
        self.checkBeforeEarlyAnswer = checkBeforeEarlyAnswer
        self.checkBeforeContent = checkBeforeContent
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

    /// True when the parameters are well-formed (RFC 9110 §5.6.6: `name=value`, a token name, the value a token or
    /// a quoted string, which may hold `;`; empty parameters between semicolons are allowed) and a `charset` among them names UTF-8. A parameter without `=` or with an
    /// empty value is no parameter, so the media type as sent is not one the route knows how to read.
    static func charsetIsUTF8(_ parameters: Substring) -> Bool {
        var rest = parameters
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            guard !rest.isEmpty else { return true }
            guard let equals = rest.firstIndex(where: { $0 == "=" || $0 == ";" }), rest[equals] == "=" else { return false }
            // No whitespace on either side of `=` (`charset = utf-8` is no parameter; evaluation probe, 6 December).
            let name = rest[..<equals]
            guard !name.isEmpty, name.utf8.allSatisfy(ByteClass.isToken) else { return false }
            rest = rest[rest.index(after: equals)...]
            let value: String
            if rest.first == "\"" {
                guard let (quoted, after) = quotedString(rest) else { return false }
                value = quoted
                rest = after.drop { $0 == " " || $0 == "\t" }
                guard rest.isEmpty || rest.first == ";" else { return false }
            } else {
                // A token: an empty one is no value (a quoted string may be empty).
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                let token = rest[..<end]
                // Whitespace may only follow the value, before the next `;` (OWS of the grammar).
                value = String(token.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
                rest = rest[end...]
                guard !value.isEmpty, value.utf8.allSatisfy(ByteClass.isToken) else { return false }
            }
            // UTF-8 by its IANA name and alias, and the unregistered `utf8` many clients send.
            if name.equalsIgnoringASCIICase("charset"), !value.equalsIgnoringASCIICase("utf-8"),
                !value.equalsIgnoringASCIICase("csUTF8"), !value.equalsIgnoringASCIICase("utf8") {
                return false
            }
        }
    }

    /// The value of the quoted string `text` starts with, its quoted-pairs undone, and what follows its closing
    /// quote; nil when it is not closed.
    static func quotedString(_ text: Substring) -> (String, Substring)? {
        var value = ""
        var escaped = false
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if escaped {
                value.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return (value, text[text.index(after: index)...])
            } else {
                value.append(character)
            }
            index = text.index(after: index)
        }
        return nil
    }
}
