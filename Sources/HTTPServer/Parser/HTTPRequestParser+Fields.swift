extension HTTPRequestParser {
    /// Validates field-line = field-name ":" OWS field-value OWS (RFC 9112 §5), refusing obs-fold, and returns
    /// the name and the OWS-trimmed value as byte ranges.
    static func scanFieldLine(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    ) -> Result<(name: Range<Int>, value: Range<Int>), HTTPParseError> {
        if ByteClass.isWhitespace(bytes[range.lowerBound]) { return .failure(.obsoleteLineFolding) }
        var colon = range.lowerBound
        while colon < range.upperBound && bytes[colon] != UInt8(ascii: ":") { colon += 1 }
        guard colon < range.upperBound else { return .failure(.malformedFieldLine) }
        let name = range.lowerBound..<colon
        guard !name.isEmpty else { return .failure(.invalidFieldName) }
        if ByteClass.isWhitespace(bytes[colon - 1]) { return .failure(.whitespaceBeforeColon) }
        for index in name where !ByteClass.isToken(bytes[index]) { return .failure(.invalidFieldName) }

        var valueStart = colon + 1
        var valueEnd = range.upperBound
        while valueStart < valueEnd && ByteClass.isWhitespace(bytes[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart && ByteClass.isWhitespace(bytes[valueEnd - 1]) { valueEnd -= 1 }
        for index in valueStart..<valueEnd where !ByteClass.isFieldValue(bytes[index]) {
            return .failure(.invalidFieldValue)
        }
        return .success((name: name, value: valueStart..<valueEnd))
    }

    /// A header field line as strings, noting framing fields on the way.
    static func parseHeaderField(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ framingFields: inout FramingFields
    ) -> Result<(name: String, value: String), HTTPParseError> {
        switch scanFieldLine(bytes, range) {
        case .failure(let error):
            return .failure(error)
        case .success(let (name, value)):
            let valueText = string(bytes, value)
            let kind = FramingFields.kind(of: bytes, name)
            if kind != .other {
                framingFields.note(kind, bytes: bytes, value: value, text: valueText)
            }
            return .success((name: string(bytes, name), value: valueText))
        }
    }

    /// Judges the header section as a whole and decides the message framing (RFC 9112 §6.3).
    mutating func finishHead() -> Result<HTTPRequestHead, HTTPParseError> {
        let version = requestLine.version
        let noted = framingFields

        if noted.hostCount > 1 { return .failure(.duplicateHost) }
        if noted.hostCount == 0 && version == .http1_1 { return .failure(.missingHost) }
        if !noted.hostIsValid { return .failure(.invalidHost) }

        if !noted.transferEncodings.isEmpty {
            if version == .http1_0 { return .failure(.transferEncodingInHTTP10) }
            if noted.contentLengthCount > 0 { return .failure(.contentLengthWithTransferEncoding) }
            let codings = noted.transferEncodings.flatMap(Self.listElements)
            guard !codings.isEmpty, codings.allSatisfy({ $0.allUTF8(ByteClass.isToken) }) else {
                return .failure(.invalidTransferEncoding)
            }
            let chunkedCount = codings.count { $0.equalsIgnoringASCIICase("chunked") }
            guard codings[codings.count - 1].equalsIgnoringASCIICase("chunked"), chunkedCount == 1 else {
                return .failure(.chunkedNotFinal)
            }
            guard codings.count == 1 else { return .failure(.unsupportedTransferCoding) }
            framing = .chunked
        } else if noted.contentLengthCount > 1 {
            return .failure(.multipleContentLength)
        } else if noted.contentLengthCount == 1 {
            guard let length = noted.contentLength else { return .failure(.invalidContentLength) }
            framing = .contentLength(length)
        } else {
            framing = .none
        }

        return .success(
            HTTPRequestHead(
                method: requestLine.method, target: requestLine.target, path: requestLine.path,
                query: requestLine.query, version: version, headers: fields, framing: framing,
                keepAlive: version == .http1_1
                    ? !noted.connectionClose : noted.connectionKeepAlive && !noted.connectionClose,
                // RFC 9110 §10.1.1: a 100-continue expectation in an HTTP/1.0 request is ignored.
                expectsContinue: noted.expectsContinue && version == .http1_1))
    }

    /// The non-empty elements of a comma-separated list, with OWS trimmed (RFC 9110 §5.6.1).
    static func listElements(_ value: String) -> [String] {
        value.split(separator: ",").compactMap { element in
            let trimmed = element.trimmingWhitespace()
            return trimmed.isEmpty ? nil : String(trimmed)
        }
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
