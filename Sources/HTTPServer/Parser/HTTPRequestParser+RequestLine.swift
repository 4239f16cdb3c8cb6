/// The three parts of a request line (RFC 9112 §3), with the target split into path and query.
struct RequestLine: Equatable {
    var method: HTTPMethod
    var target: String
    var path: String
    var query: String?
    var version: HTTPVersion

    static let empty = RequestLine(method: .get, target: "", path: "", query: nil, version: .http1_1)
}

extension HTTPRequestParser {
    static func parseRequestLine(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    ) -> Result<RequestLine, HTTPParseError> {
        // A byte no method holds, before the first space (or anywhere in a line without one), is an invalid method
        // whatever else the line holds: the parser refuses it so as it arrives, before the line ends.
        var firstSpace = range.lowerBound
        while firstSpace < range.upperBound && bytes[firstSpace] != ByteClass.space {
            guard ByteClass.isToken(bytes[firstSpace]) else { return .failure(.invalidMethod) }
            firstSpace += 1
        }
        guard firstSpace < range.upperBound, firstSpace > range.lowerBound else {
            return .failure(.malformedRequestLine)
        }
        let methodRange = range.lowerBound..<firstSpace
        var secondSpace = firstSpace + 1
        while secondSpace < range.upperBound && bytes[secondSpace] != ByteClass.space { secondSpace += 1 }
        guard secondSpace < range.upperBound else { return .failure(.malformedRequestLine) }
        let targetRange = (firstSpace + 1)..<secondSpace
        guard !targetRange.isEmpty else { return .failure(.malformedRequestLine) }
        let versionRange = (secondSpace + 1)..<range.upperBound

        let version: HTTPVersion
        switch parseVersion(bytes, versionRange) {
        case .failure(let error):
            // `GET /a b HTTP/1.1`: the space was meant to be in the target, which is what the client must fix.
            if error == .invalidVersion, versionRange.count > 8, versionRange.contains(where: { bytes[$0] == ByteClass.space }),
                FramingFields.matchesExactly(bytes, range.upperBound - 8, "HTTP/")
            {
                return .failure(.invalidTargetCharacter)
            }
            return .failure(error)
        case .success(let parsed): version = parsed
        }

        let method = HTTPMethod(rawValue: string(bytes, methodRange))
        var queryMark: Int?
        var holdsBracket = false
        for index in targetRange {
            let byte = bytes[index]
            guard ByteClass.isTarget(byte) else { return .failure(.invalidTargetCharacter) }
            if byte == UInt8(ascii: "?") && queryMark == nil { queryMark = index }
            holdsBracket = holdsBracket || byte == ByteClass.leftBracket || byte == ByteClass.rightBracket
        }
        guard hasValidPercentEscapes(bytes, targetRange) else { return .failure(.invalidPercentEscape) }
        let target = string(bytes, targetRange)
        if bytes[targetRange.lowerBound] == UInt8(ascii: "/"), method != .connect {
            // '[' and ']' may stand only in an IP-literal host (RFC 3986 §3.2.2), which an origin-form has none of.
            guard !holdsBracket else { return .failure(.invalidTargetCharacter) }
            // origin-form, by far the most common: split on the bytes, and share the string when there is no query.
            guard let queryMark else {
                return .success(RequestLine(method: method, target: target, path: target, query: nil, version: version))
            }
            return .success(
                RequestLine(
                    method: method, target: target, path: string(bytes, targetRange.lowerBound..<queryMark),
                    query: string(bytes, (queryMark + 1)..<targetRange.upperBound), version: version))
        }
        switch splitTarget(target, method: method) {
        case .failure(let error): return .failure(error)
        case .success(let (path, query)):
            return .success(RequestLine(method: method, target: target, path: path, query: query, version: version))
        }
    }

    /// HTTP-version = "HTTP/" DIGIT "." DIGIT, case-sensitive. HTTP/1.x above 1.1 is served as 1.1
    /// (RFC 9110 §6.2); any other major version is refused with 505.
    static func parseVersion(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    ) -> Result<HTTPVersion, HTTPParseError> {
        guard range.count == 8, FramingFields.matchesExactly(bytes, range.lowerBound, "HTTP/") else {
            return .failure(.invalidVersion)
        }
        let major = bytes[range.lowerBound + 5]
        let dot = bytes[range.lowerBound + 6]
        let minor = bytes[range.lowerBound + 7]
        guard ByteClass.isDigit(major), dot == UInt8(ascii: "."), ByteClass.isDigit(minor) else {
            return .failure(.invalidVersion)
        }
        guard major == UInt8(ascii: "1") else { return .failure(.unsupportedVersion) }
        return .success(minor == UInt8(ascii: "0") ? .http1_0 : .http1_1)
    }

    /// Splits the four request-target forms of RFC 9112 §3.2 into a path and a query.
    static func splitTarget(_ target: String, method: HTTPMethod) -> Result<(path: String, query: String?), HTTPParseError> {
        let utf8 = target.utf8
        if method == .connect {
            // CONNECT names only an authority (RFC 9112 §3.2.3), and every other method may not use that form.
            guard !target.isEmpty, !target.contains("/") else { return .failure(.invalidRequestTarget) }
            // Only well-formed ones reach the router's 501: `CONNECT *` or a host without its port is a bad request.
            return HostAuthority.isValidConnectAuthority(target[...])
                ? .success((path: target, query: nil)) : .failure(.invalidConnectAuthority)
        }
        if utf8.first == UInt8(ascii: "/") {
            return pathAndQuery(target[...])
        }
        if target == "*" {
            return method == .options ? .success((path: "*", query: nil)) : .failure(.invalidRequestTarget)
        }
        for scheme in ["http://", "https://"] where target.count > scheme.count
            && target.prefix(scheme.count).lowercased() == scheme
        {
            // absolute-form: the authority is ignored for routing (RFC 9112 §3.2.2); an empty path means "/",
            // except that OPTIONS with an empty path asks about the server as a whole, as `OPTIONS *` does
            // (RFC 9112 §3.2.4).
            // The authority must still be one (RFC 9110 §4.2.1), as a Host value must.
            let rest = target.dropFirst(scheme.count)
            let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" })
            guard HostAuthority.isValidTargetAuthority(rest[..<(pathStart ?? rest.endIndex)]) else {
                return .failure(.invalidTargetAuthority)
            }
            // This server speaks plain HTTP only: an https resource asked for on it must be refused (RFC 9110
            // §7.4). A gateway that terminates TLS in front of it forwards origin-form targets, which pass.
            if scheme == "https://" { return .failure(.httpsTargetOnPlainConnection) }
            guard let pathStart else { return .success((path: method == .options ? "*" : "/", query: nil)) }
            return pathAndQuery(rest[pathStart...]).map { (path: $0.path.isEmpty ? "/" : $0.path, query: $0.query) }
        }
        return .failure(.invalidRequestTarget)
    }

    /// A path and its query, split at the first '?'; '[' or ']' in either is no URI character there.
    private static func pathAndQuery(_ text: Substring) -> Result<(path: String, query: String?), HTTPParseError> {
        guard !text.utf8.contains(where: { $0 == ByteClass.leftBracket || $0 == ByteClass.rightBracket }) else {
            return .failure(.invalidTargetCharacter)
        }
        guard let mark = text.firstIndex(of: "?") else { return .success((String(text), nil)) }
        return .success((String(text[..<mark]), String(text[text.index(after: mark)...])))
    }

    static func hasValidPercentEscapes(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < range.upperBound,
                    PercentDecoding.hexValue(bytes[index + 1]) != nil,
                    PercentDecoding.hexValue(bytes[index + 2]) != nil
                else { return false }
                index += 3
            } else {
                index += 1
            }
        }
        return true
    }

    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
