/// The fields that decide framing and connection handling, noted from their bytes while the header section is
/// parsed, so the head can be judged without searching the fields again.
struct FramingFields {
    enum Kind {
        case other, host, contentLength, transferEncoding, connection, expect
    }

    var hostCount = 0
    var hostIsValid = true
    var contentLengthCount = 0
    /// nil when the (last) Content-Length value is not a run of decimal digits; `Int.max` when it is over 18 of them.
    var contentLength: Int?
    var transferEncodings: [String] = []
    var connectionClose = false
    var connectionKeepAlive = false
    var expectsContinue = false

    static func kind(of bytes: UnsafeBufferPointer<UInt8>, _ name: Range<Int>) -> Kind {
        switch name.count {
        case 4: matches(bytes, name, "host") ? .host : .other
        case 6: matches(bytes, name, "expect") ? .expect : .other
        case 10: matches(bytes, name, "connection") ? .connection : .other
        case 14: matches(bytes, name, "content-length") ? .contentLength : .other
        case 17: matches(bytes, name, "transfer-encoding") ? .transferEncoding : .other
        default: .other
        }
    }

    mutating func note(_ kind: Kind, bytes: UnsafeBufferPointer<UInt8>, value: Range<Int>, text: String) {
        switch kind {
        case .other:
            break
        case .host:
            hostCount += 1
            if !HostAuthority.isValid(bytes, value) { hostIsValid = false }
        case .contentLength:
            contentLengthCount += 1
            contentLength = Self.decimal(bytes, value)
        case .transferEncoding:
            transferEncodings.append(text)
        case .connection:
            Self.forEachListElement(bytes, value) { element in
                if element.count == 5 && Self.matches(bytes, element, "close") { connectionClose = true }
                if element.count == 10 && Self.matches(bytes, element, "keep-alive") { connectionKeepAlive = true }
            }
        case .expect:
            // A list, possibly over several lines (RFC 9110 §10.1.1, §5.3): 100-continue anywhere in it must be
            // answered, or the client waits for a 100 that never comes. Other expectations are ignored (the RFC
            // allows, but does not require, a 417 for them).
            Self.forEachListElement(bytes, value) { element in
                if element.count == 12 && Self.matches(bytes, element, "100-continue") { expectsContinue = true }
            }
        }
    }

    /// ASCII case-insensitive comparison with a lower-case literal made of letters, digits and "-".
    static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ lowercase: StaticString) -> Bool {
        guard range.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for offset in 0..<range.count {
            let byte = bytes[range.lowerBound + offset]
            let wanted = expected[offset]
            if byte != wanted && !(wanted >= UInt8(ascii: "a") && wanted <= UInt8(ascii: "z") && byte | 0x20 == wanted) {
                return false
            }
        }
        return true
    }

    /// Case-sensitive comparison of the bytes at `start` with `literal`.
    static func matchesExactly(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ literal: StaticString) -> Bool {
        guard start + literal.utf8CodeUnitCount <= bytes.count else { return false }
        for offset in 0..<literal.utf8CodeUnitCount where bytes[start + offset] != literal.utf8Start[offset] {
            return false
        }
        return true
    }

    /// 1*DIGIT (RFC 9110 §8.6), else nil. More than 18 digits after any leading zeros is a valid length that no
    /// body limit admits (RFC 9110 §8.6 asks recipients to expect large numerals without overflowing): it reads as
    /// `Int.max`, so the route answers it as any body over its limit, `413` (after the key), not as a bad field.
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return nil }
        var value = 0
        var significant = 0
        for index in range {
            let byte = bytes[index]
            guard ByteClass.isDigit(byte) else { return nil }
            if significant == 0 && byte == UInt8(ascii: "0") { continue }
            significant += 1
            if significant <= 18 { value = value * 10 + Int(byte - UInt8(ascii: "0")) }
        }
        return significant <= 18 ? value : Int.max
    }

    /// Calls `body` with each non-empty, OWS-trimmed element of a comma-separated list (RFC 9110 §5.6.1).
    static func forEachListElement(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (Range<Int>) -> Void
    ) {
        var start = range.lowerBound
        while start <= range.upperBound {
            var end = start
            while end < range.upperBound && bytes[end] != UInt8(ascii: ",") { end += 1 }
            var low = start
            var high = end
            while low < high && ByteClass.isWhitespace(bytes[low]) { low += 1 }
            while high > low && ByteClass.isWhitespace(bytes[high - 1]) { high -= 1 }
            if low < high { body(low..<high) }
            start = end + 1
        }
    }
}
