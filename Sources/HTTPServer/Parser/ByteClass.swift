/// Character classes of RFC 9110 §5.6 and RFC 3986, as 128-bit masks: constant-folded, no lazy globals, no
/// lookups through an array on the hot path.
enum ByteClass {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let leftBracket = UInt8(ascii: "[")
    static let rightBracket = UInt8(ascii: "]")

    @inline(__always)
    private static func member(_ byte: UInt8, low: UInt64, high: UInt64) -> Bool {
        if byte < 64 { return low & (1 &<< UInt64(byte)) != 0 }
        if byte < 128 { return high & (1 &<< UInt64(byte &- 64)) != 0 }
        return false
    }

    /// tchar: ALPHA / DIGIT / "!#$%&'*+-.^_`|~" (methods, field names, transfer codings).
    @inline(__always)
    static func isToken(_ byte: UInt8) -> Bool {
        member(byte, low: 0x03FF_6CFA_0000_0000, high: 0x57FF_FFFF_C7FF_FFFE)
    }

    /// Request-target characters: RFC 3986 unreserved, reserved without "#", and "%".
    @inline(__always)
    static func isTarget(_ byte: UInt8) -> Bool {
        member(byte, low: 0xAFFF_FFF2_0000_0000, high: 0x47FF_FFFE_AFFF_FFFF)
    }

    /// field-vchar (VCHAR and obs-text), SP and HTAB; CR, LF, NUL, DEL and other controls are not.
    @inline(__always)
    static func isFieldValue(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || (byte >= 0x21 && byte != 0x7F)
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
