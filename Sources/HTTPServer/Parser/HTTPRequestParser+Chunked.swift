extension HTTPRequestParser {
    /// chunk-size [ chunk-ext ] (RFC 9112 §7.1), where
    /// chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ) and values are tokens or
    /// quoted strings. Extensions are validated and ignored. A size too large for an `Int` is a valid chunk-size
    /// (`1*HEXDIG`) that no body limit admits: it reads as `Int.max`, so the caller answers it as a body over the
    /// limit (`413`), as it answers a `Content-Length` of too many digits, not as a malformed line.
    static func parseChunkSizeLine(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    ) -> Result<Int, HTTPParseError> {
        var cursor = ChunkLineCursor(bytes: bytes, index: range.lowerBound, end: range.upperBound)
        var size = 0
        while !cursor.atEnd, let digit = PercentDecoding.hexValue(cursor.current) {
            size = size <= (Int.max >> 4) ? size << 4 | Int(digit) : Int.max
            cursor.index += 1
        }
        guard cursor.index > range.lowerBound else { return .failure(.invalidChunkSize) }
        let digitsEnd = cursor.index
        while true {
            if cursor.atEnd { return .success(size) }
            cursor.skipWhitespace()
            // BWS is only allowed before a ";": "5 " or "5x" is not a chunk size.
            guard !cursor.atEnd, cursor.current == UInt8(ascii: ";") else {
                return .failure(cursor.index == digitsEnd ? .invalidChunkSize : .invalidChunkExtension)
            }
            cursor.index += 1
            cursor.skipWhitespace()
            guard cursor.skipToken() else { return .failure(.invalidChunkExtension) }
            cursor.skipWhitespace()
            if !cursor.atEnd && cursor.current == UInt8(ascii: "=") {
                cursor.index += 1
                cursor.skipWhitespace()
                guard cursor.skipToken() || cursor.skipQuotedString() else { return .failure(.invalidChunkExtension) }
            }
        }
    }
}

/// A position in a chunk-size line; a struct used in place, so stepping through bytes costs no bookkeeping.
struct ChunkLineCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int
    let end: Int

    var atEnd: Bool { index >= end }
    var current: UInt8 { bytes[index] }

    mutating func skipWhitespace() {
        while index < end && ByteClass.isWhitespace(bytes[index]) { index += 1 }
    }

    mutating func skipToken() -> Bool {
        let start = index
        while index < end && ByteClass.isToken(bytes[index]) { index += 1 }
        return index > start
    }

    /// quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE
    mutating func skipQuotedString() -> Bool {
        guard index < end, bytes[index] == UInt8(ascii: "\"") else { return false }
        index += 1
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return true
            }
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard index < end, ByteClass.isFieldValue(bytes[index]) else { return false }
            } else if !ByteClass.isFieldValue(byte) {
                return false
            }
            index += 1
        }
        return false
    }
}
