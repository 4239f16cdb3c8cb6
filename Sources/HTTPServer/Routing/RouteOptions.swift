/// Per-route limits checked as soon as the header section is parsed, before the body is read.
public struct RouteOptions: Sendable {
    /// The largest decoded body accepted; nil means the server's `defaultBodyLimit`.
    public var bodyLimit: Int?
    /// Media types accepted for a request with a body, compared without parameters (`charset`) and
    /// case-insensitively; nil accepts any. A body with a missing or other Content-Type gets 415.
    public var acceptedContentTypes: [String]?

    public init(bodyLimit: Int? = nil, acceptedContentTypes: [String]? = nil) {
        self.bodyLimit = bodyLimit
        self.acceptedContentTypes = acceptedContentTypes
    }

    /// Whether a request with a body and this Content-Type value may proceed.
    func accepts(contentType: String?) -> Bool {
        guard let acceptedContentTypes else { return true }
        guard let contentType else { return false }
        // The media type is what precedes any parameters (RFC 9110 section 8.3.1); sliced, not split, as this runs
        // on every request with a body.
        let end = contentType.utf8.firstIndex(of: UInt8(ascii: ";")) ?? contentType.endIndex
        let mediaType = contentType[..<end].trimmingWhitespace()
        return acceptedContentTypes.contains { mediaType.equalsIgnoringASCIICase($0) }
    }
}
