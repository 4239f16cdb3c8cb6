extension JSONReader {
    /// The first place `bytes` breaks RFC 8259's grammar as one JSON document, at any depth; nil when it is JSON.
    /// Decoders stop at their depth limit and at half a surrogate pair (`\ud800` alone), both of which the grammar
    /// allows; before calling such a body JSON of the wrong shape, a refusal asks this whether the rest of it is JSON
    /// at all. It keeps its own stack of open containers, so no nesting overflows the thread's stack. Refusals
    /// only: it is not tuned.
    public static func firstGrammarError(in bytes: [UInt8]) -> JSONSyntaxError? {
        var reader = JSONReader(bytes, maximumDepth: .max)
        do {
            try reader.skipDocumentGrammar()
            try reader.finish()
            return nil
        } catch {
            return error
        }
    }

    private mutating func skipDocumentGrammar() throws(JSONSyntaxError) {
        // One entry per open container: true for an object.
        var open: [Bool] = []
        while true {
            // A value.
            skipWhitespace()
            switch try peekByte() {
            case UInt8(ascii: "{"):
                index += 1
                skipWhitespace()
                if try peekByte() == UInt8(ascii: "}") {
                    index += 1
                } else {
                    open.append(true)
                    try skipMemberName()
                    continue
                }
            case UInt8(ascii: "["):
                index += 1
                skipWhitespace()
                if try peekByte() == UInt8(ascii: "]") {
                    index += 1
                } else {
                    open.append(false)
                    continue
                }
            case UInt8(ascii: "\""):
                try skipStringGrammar()
            default:
                switch try peekKind() {
                case .number: _ = try readNumber()
                case .boolean: _ = try readBool()
                default: try readNull()
                }
            }
            // After a value: close what ends here, up to a comma that asks for the next value.
            while true {
                guard let isObject = open.last else { return }
                skipWhitespace()
                let next = try peekByte()
                index += 1
                if next == UInt8(ascii: ",") {
                    if isObject { try skipMemberName() }
                    break
                }
                guard next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw JSONSyntaxError(.unexpectedCharacter, at: index - 1)
                }
                open.removeLast()
            }
        }
    }

    private mutating func skipMemberName() throws(JSONSyntaxError) {
        skipWhitespace()
        guard try peekByte() == UInt8(ascii: "\"") else { throw JSONSyntaxError(.unexpectedCharacter, at: index) }
        try skipStringGrammar()
        skipWhitespace()
        guard try peekByte() == UInt8(ascii: ":") else { throw JSONSyntaxError(.unexpectedCharacter, at: index) }
        index += 1
    }

    /// A string as the grammar has it: escapes well formed, no raw control characters, valid UTF-8; a `\u`
    /// escape of half a surrogate pair passes.
    private mutating func skipStringGrammar() throws(JSONSyntaxError) {
        index += 1
        let start = index
        var sawNonASCII = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                if sawNonASCII, String(validating: bytes[start..<index], as: UTF8.self) == nil {
                    throw JSONSyntaxError(.invalidUnicode, at: offsetOfInvalidUTF8(in: start..<index))
                }
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                switch try peekByte() {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    index += 1
                    _ = try readHexQuad()
                default:
                    throw JSONSyntaxError(.invalidEscape, at: index)
                }
            case 0..<0x20:
                throw JSONSyntaxError(.controlCharacterInString, at: index)
            default:
                if byte >= 0x80 { sawNonASCII = true }
                index += 1
            }
        }
        throw JSONSyntaxError(.unexpectedEnd, at: index)
    }
}
