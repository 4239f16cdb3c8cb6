extension HTTPRequestParser {
    /// field-line = field-name ":" OWS field-value OWS (RFC 9112 §5), with obs-fold refused.
    static func parseFieldLine(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    ) -> Result<(name: String, value: String), HTTPParseError> {
        if ByteClass.isWhitespace(bytes[range.lowerBound]) { return .failure(.obsoleteLineFolding) }
        guard let colon = bytes[range].firstIndex(of: UInt8(ascii: ":")) else {
            return .failure(.malformedFieldLine)
        }
        let nameRange = range.lowerBound..<colon
        guard !nameRange.isEmpty else { return .failure(.invalidFieldName) }
        if ByteClass.isWhitespace(bytes[colon - 1]) { return .failure(.whitespaceBeforeColon) }
        guard bytes[nameRange].allSatisfy({ ByteClass.isToken($0) }) else { return .failure(.invalidFieldName) }

        var valueStart = colon + 1
        var valueEnd = range.upperBound
        while valueStart < valueEnd && ByteClass.isWhitespace(bytes[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart && ByteClass.isWhitespace(bytes[valueEnd - 1]) { valueEnd -= 1 }
        let valueRange = valueStart..<valueEnd
        guard bytes[valueRange].allSatisfy({ ByteClass.isFieldValue($0) }) else {
            return .failure(.invalidFieldValue)
        }
        return .success((name: string(bytes, nameRange), value: string(bytes, valueRange)))
    }

    /// Validates the header section as a whole and decides the message framing (RFC 9112 §6.3).
    mutating func finishHead() -> Result<HTTPRequestHead, HTTPParseError> {
        var hosts = 0
        var hostValue = ""
        var contentLengths: [String] = []
        var transferEncodings: [String] = []
        var close = false
        var keepAlive = false
        var expectsContinue = false
        for field in fields {
            let name = field.name
            if name.equalsIgnoringASCIICase("host") {
                hosts += 1
                hostValue = field.value
            } else if name.equalsIgnoringASCIICase("content-length") {
                contentLengths.append(field.value)
            } else if name.equalsIgnoringASCIICase("transfer-encoding") {
                transferEncodings.append(field.value)
            } else if name.equalsIgnoringASCIICase("connection") {
                for option in Self.listElements(field.value) {
                    if option.equalsIgnoringASCIICase("close") { close = true }
                    if option.equalsIgnoringASCIICase("keep-alive") { keepAlive = true }
                }
            } else if name.equalsIgnoringASCIICase("expect") {
                expectsContinue = field.value.equalsIgnoringASCIICase("100-continue")
            }
        }
        let version = requestLine.version

        if hosts > 1 { return .failure(.duplicateHost) }
        if hosts == 0 && version == .http1_1 { return .failure(.missingHost) }
        if !hostValue.utf8.allSatisfy({ ByteClass.isHost($0) }) { return .failure(.invalidHost) }

        if !transferEncodings.isEmpty {
            if version == .http1_0 { return .failure(.transferEncodingInHTTP10) }
            if !contentLengths.isEmpty { return .failure(.contentLengthWithTransferEncoding) }
            let codings = transferEncodings.flatMap(Self.listElements)
            guard !codings.isEmpty,
                codings.allSatisfy({ $0.utf8.allSatisfy { ByteClass.isToken($0) } })
            else { return .failure(.invalidTransferEncoding) }
            let chunkedCount = codings.count { $0.equalsIgnoringASCIICase("chunked") }
            guard codings[codings.count - 1].equalsIgnoringASCIICase("chunked"), chunkedCount == 1 else {
                return .failure(.chunkedNotFinal)
            }
            guard codings.count == 1 else { return .failure(.unsupportedTransferCoding) }
            framing = .chunked
        } else if contentLengths.count > 1 {
            return .failure(.multipleContentLength)
        } else if let text = contentLengths.first {
            guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy(ByteClass.isDigit), let length = Int(text)
            else { return .failure(.invalidContentLength) }
            framing = .contentLength(length)
        } else {
            framing = .none
        }

        return .success(
            HTTPRequestHead(
                method: requestLine.method, target: requestLine.target, path: requestLine.path,
                query: requestLine.query, version: version, headers: fields, framing: framing,
                keepAlive: version == .http1_1 ? !close : keepAlive && !close,
                // RFC 9110 §10.1.1: a 100-continue expectation in an HTTP/1.0 request is ignored.
                expectsContinue: expectsContinue && version == .http1_1))
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
