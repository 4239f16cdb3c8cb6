extension HTTPRequestParser {
    /// chunk-size [ chunk-ext ] (RFC 9112 §7.1), where
    /// chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ) and values are tokens or
    /// quoted strings. Extensions are validated and ignored.
    static func parseChunkSizeLine(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    ) -> Result<Int, HTTPParseError> {
        var index = range.lowerBound
        var size = 0
        while index < range.upperBound, let digit = PercentDecoding.hexValue(bytes[index]) {
            guard size <= (Int.max >> 4) else { return .failure(.invalidChunkSize) }
            size = size << 4 | Int(digit)
            index += 1
        }
        guard index > range.lowerBound else { return .failure(.invalidChunkSize) }

        func skipWhitespace() {
            while index < range.upperBound && ByteClass.isWhitespace(bytes[index]) { index += 1 }
        }
        func skipToken() -> Bool {
            let start = index
            while index < range.upperBound && ByteClass.isToken(bytes[index]) { index += 1 }
            return index > start
        }
        func skipQuotedString() -> Bool {
            guard index < range.upperBound, bytes[index] == UInt8(ascii: "\"") else { return false }
            index += 1
            while index < range.upperBound {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return true
                }
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    guard index < range.upperBound, ByteClass.isFieldValue(bytes[index]) else { return false }
                } else if !ByteClass.isFieldValue(byte) {
                    return false
                }
                index += 1
            }
            return false
        }

        let digitsEnd = index
        while true {
            if index == range.upperBound { return .success(size) }
            skipWhitespace()
            // BWS is only allowed before a ";": "5 " or "5x" is not a chunk size.
            guard index < range.upperBound, bytes[index] == UInt8(ascii: ";") else {
                return .failure(index == digitsEnd ? .invalidChunkSize : .invalidChunkExtension)
            }
            index += 1
            skipWhitespace()
            guard skipToken() else { return .failure(.invalidChunkExtension) }
            skipWhitespace()
            if index < range.upperBound && bytes[index] == UInt8(ascii: "=") {
                index += 1
                skipWhitespace()
                guard skipToken() || skipQuotedString() else { return .failure(.invalidChunkExtension) }
            }
        }
    }
}
