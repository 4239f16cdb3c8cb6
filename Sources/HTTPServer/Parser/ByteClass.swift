/// Character classes of RFC 9110 §5.6 and RFC 3986, as lookup tables.
enum ByteClass {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    /// tchar: the characters of a token (methods, field names, transfer codings).
    static let token: [Bool] = table { byte in
        isAlphaNumeric(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    /// Characters allowed in a request-target (RFC 3986 unreserved, reserved without '#', and '%').
    static let target: [Bool] = table { byte in
        isAlphaNumeric(byte) || "-._~:/?[]@!$&'()*+,;=%".utf8.contains(byte)
    }

    /// Characters allowed in a Host value (uri-host and port).
    static let host: [Bool] = table { byte in
        isAlphaNumeric(byte) || "-._~!$&'()*+,;=:[]%".utf8.contains(byte)
    }

    /// field-vchar, SP and HTAB; CR, LF, NUL and other controls are not.
    static let fieldValue: [Bool] = table { byte in
        byte == space || byte == tab || (byte >= 0x21 && byte != 0x7F)
    }

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isAlphaNumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    private static func table(_ member: (UInt8) -> Bool) -> [Bool] {
        (0...255).map { member(UInt8($0)) }
    }
}
