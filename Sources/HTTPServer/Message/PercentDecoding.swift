/// Percent-decoding of URI components (RFC 3986 §2.1); malformed escapes are kept literally.
enum PercentDecoding {
    static func decode(_ text: Substring, plusAsSpace: Bool) -> String {
        guard let bytes = decodedBytes(text, plusAsSpace: plusAsSpace) else { return String(text) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The decoded component, or nil when its bytes are not UTF-8. Where the text names something (a path
    /// parameter), decoding with replacement would make `a%FF` and `a%FE` one name: both become "a\u{FFFD}".
    /// Text without escapes is returned as it is, uncopied.
    static func decodeStrictly(_ text: String) -> String? {
        guard let bytes = decodedBytes(text[...], plusAsSpace: false) else { return text }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The bytes the escapes stand for; nil when there is nothing to decode.
    private static func decodedBytes(_ text: Substring, plusAsSpace: Bool) -> [UInt8]? {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) })
        else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"),
                let first = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), first != utf8.endIndex,
                let second = utf8.index(first, offsetBy: 1, limitedBy: utf8.endIndex), second != utf8.endIndex,
                let high = hexValue(utf8[first]), let low = hexValue(utf8[second])
            {
                bytes.append(high << 4 | low)
                index = utf8.index(after: second)
                continue
            }
            bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = utf8.index(after: index)
        }
        return bytes
    }

    static func decode(_ text: String, plusAsSpace: Bool = false) -> String {
        decode(text[...], plusAsSpace: plusAsSpace)
    }

    /// Decodes only the escapes of unreserved characters (ALPHA, DIGIT, `-`, `.`, `_`, `~`): the normalisation of
    /// RFC 3986 §6.2.2.2, which keeps every other escape, and so the component's structure, as it was.
    static func decodeUnreserved(_ text: String) -> String {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]), isUnreserved(high << 4 | low)
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
