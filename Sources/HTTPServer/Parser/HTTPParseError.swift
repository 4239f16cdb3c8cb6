/// Why the parser refused a message. Every case ends the connection: after a framing error the parser cannot
/// know where the next message would start, and guessing is how request smuggling works.
enum HTTPParseError: Error, Equatable, Sendable, CaseIterable {
    case requestLineTooLong
    /// A request line over the limit before its first space: a method longer than any the server implements.
    case methodTooLong
    case headerBlockTooLarge
    case tooManyHeaderFields
    /// The trailer section of a chunked body over the header section's limits, which it is held to: the same
    /// status and type, but a detail that names the section at fault (file-reading probe, 7 December: a client
    /// told "the header section" looked at headers that were fine).
    case trailerSectionTooLarge
    case tooManyTrailerFields
    case invalidLineEnding
    case malformedRequestLine
    case invalidMethod
    case invalidRequestTarget
    /// An absolute-form target whose authority is no host and port (`http:///x`, `http://x:abc/x`).
    case invalidTargetAuthority
    /// A CONNECT target that is not `host:port` (RFC 9112 §3.2.3: the authority-form always has a port).
    case invalidConnectAuthority
    /// An absolute-form `https://` target on this plain-HTTP connection.
    case httpsTargetOnPlainConnection
    /// More empty lines before the request line than the server skips (RFC 9112 §2.2 asks for at least one).
    case tooManyLeadingEmptyLines
    case invalidTargetCharacter
    case invalidPercentEscape
    case invalidVersion
    case unsupportedVersion
    case obsoleteLineFolding
    case malformedFieldLine
    case whitespaceBeforeColon
    case invalidFieldName
    case invalidFieldValue
    case missingHost
    case duplicateHost
    case invalidHost
    case contentLengthWithTransferEncoding
    case multipleContentLength
    case invalidContentLength
    case transferEncodingInHTTP10
    case invalidTransferEncoding
    case chunkedNotFinal
    case unsupportedTransferCoding
    case invalidChunkSize
    case invalidChunkExtension
    case chunkHeaderTooLong
    /// The size lines of one body, together, exceed their budget: a body of tiny chunks costs a parse per chunk.
    case chunkFramingTooLong
    case invalidChunkTerminator
    case bodyTooLarge
}

extension HTTPParseError: HTTPResponseError {
    var status: HTTPStatus {
        switch self {
        case .requestLineTooLong: .uriTooLong
        case .methodTooLong: .notImplemented
        case .httpsTargetOnPlainConnection: .misdirectedRequest
        case .headerBlockTooLarge, .tooManyHeaderFields, .trailerSectionTooLarge, .tooManyTrailerFields: .requestHeaderFieldsTooLarge
        case .unsupportedVersion: .httpVersionNotSupported
        case .unsupportedTransferCoding: .notImplemented
        case .bodyTooLarge: .payloadTooLarge
        default: .badRequest
        }
    }

    var problem: ProblemDetails {
        var problem = ProblemDetails(slug: slug, status: status, detail: detail)
        if !fieldNames.isEmpty {
            problem.errors = fieldNames.map { ProblemDetails.FieldError(pointer: $0, detail: detail, location: .header) }
        }
        return problem
    }

    /// The header fields at fault, named in `errors[]` as a refused field line is: a client told "not a valid
    /// authority" in prose alone had no pointer to act on (HTTP probe, 7 December). Field names only, never values.
    var fieldNames: [String] {
        switch self {
        case .missingHost, .duplicateHost, .invalidHost: ["Host"]
        case .contentLengthWithTransferEncoding: ["Content-Length", "Transfer-Encoding"]
        case .multipleContentLength, .invalidContentLength: ["Content-Length"]
        case .transferEncodingInHTTP10, .invalidTransferEncoding, .chunkedNotFinal, .unsupportedTransferCoding: ["Transfer-Encoding"]
        default: []
        }
    }

    var slug: String {
        switch self {
        case .requestLineTooLong: "request-line-too-long"
        case .methodTooLong: "method-not-implemented"
        case .httpsTargetOnPlainConnection: "misdirected-request"
        case .headerBlockTooLarge, .trailerSectionTooLarge: "header-block-too-large"
        case .tooManyHeaderFields, .tooManyTrailerFields: "too-many-header-fields"
        case .unsupportedVersion: "http-version-not-supported"
        case .unsupportedTransferCoding: "unsupported-transfer-coding"
        case .bodyTooLarge: "body-too-large"
        default: "malformed-request"
        }
    }

    /// Fixed texts: a detail never quotes the offending bytes back.
    var detail: String {
        switch self {
        case .requestLineTooLong: "The request-target makes the request line longer than the server's limit."
        case .methodTooLong: "The method is longer than any this server implements (RFC 9112 §3)."
        case .httpsTargetOnPlainConnection:
            "The request-target is an https URI, but this connection is plain HTTP (RFC 9110 §7.4): send the request "
                + "over TLS to its origin, or in origin-form through the gateway that terminates TLS."
        case .headerBlockTooLarge: "The header section exceeds the server's size limit."
        case .tooManyHeaderFields: "The header section has more fields than the server accepts."
        case .trailerSectionTooLarge: "The trailer section of the chunked body exceeds the server's size limit for a field section."
        case .tooManyTrailerFields: "The trailer section of the chunked body has more fields than the server accepts in a field section."
        case .invalidLineEnding: "Lines must end with CRLF."
        case .malformedRequestLine: "The request line is not 'method SP request-target SP HTTP-version'."
        case .invalidMethod: "The method is not a valid token."
        case .invalidRequestTarget:
            "The request-target's form is not one this method may use (RFC 9112 §3.2): a path, or an absolute URI "
                + "without userinfo; '*' only with OPTIONS; an authority only with CONNECT."
        case .invalidTargetAuthority:
            "The request-target's authority is not a host with an optional numeric port, without userinfo (RFC 9110 §4.2.1)."
        case .invalidConnectAuthority:
            "CONNECT's request-target must be a host and a numeric port, 'host:port', without userinfo (RFC 9112 §3.2.3, "
                + "RFC 9110 §9.3.6)."
        case .tooManyLeadingEmptyLines: "Too many empty lines came before the request line."
        case .invalidTargetCharacter:
            "The request-target holds a character a URI may not (such as a space, '<', '>', '\"' or '#'): percent-encode it."
        case .invalidPercentEscape: "The request-target has a '%' that is not followed by two hexadecimal digits."
        case .invalidVersion: "The HTTP version is malformed."
        case .unsupportedVersion: "Only HTTP/1.0 and HTTP/1.1 are supported."
        case .obsoleteLineFolding: "Obsolete line folding is not accepted."
        case .malformedFieldLine: "A header or trailer field line has no colon."
        case .whitespaceBeforeColon: "Whitespace between a field name and the colon is not allowed."
        case .invalidFieldName: "A field name is not a valid token."
        case .invalidFieldValue: "A field value contains a control character."
        case .missingHost: "HTTP/1.1 requests need exactly one Host field."
        case .duplicateHost: "The Host field appears more than once."
        case .invalidHost: "The Host field value is not a valid authority."
        case .contentLengthWithTransferEncoding: "Content-Length and Transfer-Encoding must not both be present."
        case .multipleContentLength: "Content-Length appears more than once."
        case .invalidContentLength: "Content-Length is not a valid decimal length."
        case .transferEncodingInHTTP10: "Transfer-Encoding is not valid in HTTP/1.0."
        case .invalidTransferEncoding: "Transfer-Encoding is malformed."
        case .chunkedNotFinal: "Transfer-Encoding must end with chunked, applied once."
        case .unsupportedTransferCoding: "Only the chunked transfer coding is supported."
        case .invalidChunkSize: "A chunk size is not a valid hexadecimal length."
        case .invalidChunkExtension: "A chunk extension is malformed."
        case .chunkHeaderTooLong: "A chunk size line exceeds the server's limit."
        case .chunkFramingTooLong: "The chunk size lines of this body together exceed the server's limit: send larger chunks."
        case .invalidChunkTerminator: "Chunk data must be followed by CRLF."
        case .bodyTooLarge: "The request body exceeds the limit of this route."
        }
    }
}
