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
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .trimmingWhitespace()
        return acceptedContentTypes.contains { String(mediaType).equalsIgnoringASCIICase($0) }
    }
}
