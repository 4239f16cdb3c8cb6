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

    /// Longest member name an error repeats back.
    public static let longestEchoedName = 64

    /// Whether an unknown member name sent by a client may be repeated in an error (and so in the idempotent
    /// answers the store keeps): at most `longestEchoedName` bytes of letters, digits and `_ - ~ /`, with no run of
    /// more than `longestEchoedDigitRun` digits (the punctuation between digits does not end a run: a card or phone
    /// number is written `4111-1111-1111-1111`, `555_123_4567`), as a field name (ours or a typo of one) is.
    /// Anything else may be personal data used as a key (`"jane@example.com": true`, `"Jane Doe": 1`,
    /// `"jane.doe": 1`, a card or phone number) and is not repeated. Nor is a name that looks like an API key, by
    /// the rule header field names and `X-Request-ID` follow (`looksLikeAPIKey`).
    public static func isEchoable(_ name: String) -> Bool {
        guard name.utf8.count <= longestEchoedName else { return false }
        var digitRun = 0
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digitRun += 1
                if digitRun > longestEchoedDigitRun { return false }
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                digitRun = 0
            case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                continue
            default:
                return false
            }
        }
        return !looksLikeAPIKey(name)
    }

    /// A key's secret sent as a member or parameter name was repeated in the error, and kept with the idempotent
    /// answer of a label batch for a day (security probe, 7 December): a token's prefix in any letter case, or
    /// `APIKeySecret.fewestLettersAndDigitsInRandomPart` letters and digits of both cases, as for `X-Request-ID`,
    /// with `keyLikeDigits` digits or `keyLikePairs` capitals or digits next to another among them. A camelCase field
    /// name of 32 or more letters (`communicationAppSwitchesDuringFlow`) has a capital a word, each followed by a
    /// small letter, and hardly a digit, and is repeated; a random part, or any 32 characters of one, has about 10
    /// such pairs and 5 digits, and is not (too few of both: about 8 in 10^4 pieces of 32, 2 in 10^4 whole parts).
    static func looksLikeAPIKey(_ name: String) -> Bool {
        let lowered = name.lowercased()
        if APIKeySecret.tokenPrefixes.contains(where: { lowered.contains($0) }) { return true }
        var lettersAndDigits = 0, digits = 0, pairs = 0
        var hasUpper = false, hasLower = false, previousWasCapitalOrDigit = false
        for byte in name.utf8 {
            let isUpper = byte >= 0x41 && byte <= 0x5A, isLower = byte >= 0x61 && byte <= 0x7A
            let isDigit = byte >= 0x30 && byte <= 0x39
            if isUpper || isLower || isDigit { lettersAndDigits += 1 }
            if isDigit { digits += 1 }
            if (isUpper || isDigit) && previousWasCapitalOrDigit { pairs += 1 }
            previousWasCapitalOrDigit = isUpper || isDigit
            hasUpper = hasUpper || isUpper
            hasLower = hasLower || isLower
        }
        return lettersAndDigits >= APIKeySecret.fewestLettersAndDigitsInRandomPart && hasUpper && hasLower
            && (digits >= keyLikeDigits || pairs >= keyLikePairs)
    }

    static let keyLikeDigits = 4
    static let keyLikePairs = 3

    /// No field name holds more digits in a row; a card, account or phone number does (JSON probe, 6 December: a
    /// card number sent as a label item's member was echoed and kept with the batch's idempotent answer).
    public static let longestEchoedDigitRun = 4

    /// Why a name was left out of an error, for its detail.
    public static let unrepeatedNameReason = "its name is not repeated: over \(longestEchoedName) bytes, more than \(longestEchoedDigitRun) digits in a row, characters other than letters, digits and _ - ~ /, or what looks like an API key"

    /// The pointer of one feature inside an evaluation request body.
    public static func feature(_ name: String) -> String {
        "/features/" + escape(name)
    }
}
