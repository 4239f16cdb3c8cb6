import Glibc

/// The Host field's value as RFC 9110 §7.2 defines it: `uri-host [ ":" port ]`, with uri-host an RFC 3986 host
/// (a bracketed IP literal, or a reg-name, which covers IPv4 addresses) and port `*DIGIT`. RFC 9112 §3.2 makes a
/// server answer 400 to any other value. An empty value is valid (a target with no authority); a port with no host
/// is not (RFC 9110 §4.2.1: an http URI has a host).
enum HostAuthority {
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return true }
        var hostEnd: Int
        if bytes[range.lowerBound] == UInt8(ascii: "[") {
            guard let close = range.first(where: { bytes[$0] == UInt8(ascii: "]") }),
                  isIPLiteral(bytes, (range.lowerBound + 1)..<close)
            else { return false }
            hostEnd = close + 1
        } else {
            hostEnd = range.lowerBound
            while hostEnd < range.upperBound && bytes[hostEnd] != UInt8(ascii: ":") { hostEnd += 1 }
            guard hostEnd > range.lowerBound, isRegName(bytes, range.lowerBound..<hostEnd) else { return false }
        }
        guard hostEnd < range.upperBound else { return true }
        guard bytes[hostEnd] == UInt8(ascii: ":") else { return false }
        return ((hostEnd + 1)..<range.upperBound).allSatisfy { ByteClass.isDigit(bytes[$0]) }
    }

    /// The authority of an absolute-form target: the same grammar as Host, and never empty (RFC 9110 §4.2.1: a
    /// recipient must reject an http URI with an empty host as invalid). `userinfo@` is not allowed there either.
    static func isValidTargetAuthority(_ authority: Substring) -> Bool {
        guard !authority.isEmpty else { return false }
        var text = authority
        return text.withUTF8 { isValid($0, 0..<$0.count) }
    }

    /// CONNECT's authority-form, `uri-host ":" port` (RFC 9112 §3.2.3): a target authority whose port is present
    /// and not empty, which RFC 9110 §9.3.6 has every client send.
    static func isValidConnectAuthority(_ authority: Substring) -> Bool {
        guard isValidTargetAuthority(authority) else { return false }
        // A valid authority holds ':' only inside an IP literal's brackets or before its port.
        let afterHost = authority.lastIndex(of: "]").map { authority[authority.index(after: $0)...] } ?? authority
        guard let colon = afterHost.firstIndex(of: ":") else { return false }
        return authority.index(after: colon) < authority.endIndex
    }

    /// reg-name = *( unreserved / pct-encoded / sub-delims ), here at least one character.
    private static func isRegName(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < range.upperBound, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
                continue
            }
            guard isUnreservedOrSubDelim(byte) else { return false }
            index += 1
        }
        return true
    }

    /// IP-literal's inside: an IPv6 address (as inet_pton reads it) or IPvFuture, `v` 1*HEXDIG "." 1*( unreserved /
    /// sub-delims / ":" ).
    private static func isIPLiteral(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty, range.count <= 64 else { return false }
        if bytes[range.lowerBound] | 0x20 == UInt8(ascii: "v") {
            guard let dot = range.first(where: { bytes[$0] == UInt8(ascii: ".") }), dot > range.lowerBound + 1,
                  dot + 1 < range.upperBound,
                  ((range.lowerBound + 1)..<dot).allSatisfy({ isHexDigit(bytes[$0]) })
            else { return false }
            return ((dot + 1)..<range.upperBound).allSatisfy {
                isUnreservedOrSubDelim(bytes[$0]) || bytes[$0] == UInt8(ascii: ":")
            }
        }
        var text = [CChar](repeating: 0, count: range.count + 1)
        for (offset, index) in range.enumerated() {
            let byte = bytes[index]
            guard isHexDigit(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") else { return false }
            text[offset] = CChar(bitPattern: byte)
        }
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        ByteClass.isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    /// unreserved (ALPHA DIGIT "-" "." "_" "~") and sub-delims ("!" "$" "&" "'" "(" ")" "*" "+" "," ";" "=").
    private static func isUnreservedOrSubDelim(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }
}
