import FoundationEssentials

/// base64url without padding (RFC 4648 §5), as JWK and bearer tokens use it. A serialisation, not cryptography.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return String(text.map { character -> Character in
            switch character {
            case "+": return "-"
            case "/": return "_"
            default: return character
            }
        })
    }

    static func decode(_ text: String) -> [UInt8]? {
        // Standard-alphabet characters or padding mean the input is not base64url.
        guard !text.contains(where: { $0 == "+" || $0 == "/" || $0 == "=" }) else { return nil }
        var standard = String(text.map { character -> Character in
            switch character {
            case "-": return "+"
            case "_": return "/"
            default: return character
            }
        })
        while standard.utf8.count % 4 != 0 { standard.append("=") }
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
