/// RFC 6901 JSON Pointer building: `~` becomes `~0` and `/` becomes `~1`, in that order.
public enum JSONPointer {
    public static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var escaped = ""
        escaped.reserveCapacity(token.utf8.count + 4)
        for character in token.unicodeScalars {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// The pointer made of `tokens`, each escaped: `["features", "a/b"]` gives `/features/a~1b`.
    public static func pointer(_ tokens: [String]) -> String {
        tokens.map { "/" + escape($0) }.joined()
    }

    /// The pointer of one feature inside an evaluation request body.
    public static func feature(_ name: String) -> String {
        "/features/" + escape(name)
    }
}
