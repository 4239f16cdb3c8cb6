import Testing
@testable import JSONStream

/// The grammar check that refusals use once a decoder has stopped reading (its depth limit, half a surrogate pair):
/// it must tell JSON from text that is not JSON at any depth, agree with the reader where both read, and never
/// overflow the stack.
@Suite struct JSONReaderGrammarTests {
    private func error(_ text: String) -> JSONSyntaxError.Reason? {
        JSONReader.firstGrammarError(in: Array(text.utf8))?.reason
    }

    @Test(arguments: [
        "{}", "[]", "0", "-0.5e+3", "1e400", "true", "null", #""a""#, " { \"a\" : [ 1 , { } , [ ] , \"\\u00e9\\n\" ] } ",
        #"{"a": "\ud800"}"#, #"["\udc00\ud800"]"#, #"{"é": "ü"}"#,
        String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
        "{\"a\":" + String(repeating: "{\"b\":", count: 50_000) + "1" + String(repeating: "}", count: 50_001),
    ])
    func acceptsJSONAtAnyDepth(text: String) {
        #expect(error(text) == nil)
    }

    @Test func findsWhereTextIsNotJSON() {
        #expect(error("") == .unexpectedEnd)
        #expect(error(#"{"zzz": [[[[[[[[[[[[[[[[[[[["#) == .unexpectedEnd)
        #expect(error("[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]xx") == .trailingContent)
        #expect(error(#"{"a": [1,]}"#) == .unexpectedCharacter)
        #expect(error(#"{"a" 1}"#) == .unexpectedCharacter)
        #expect(error(#"{a: 1}"#) == .unexpectedCharacter)
        #expect(error(#"[1 2]"#) == .unexpectedCharacter)
        #expect(error(#"[01]"#) == .invalidNumber)
        #expect(error(#"[tru]"#) == .unexpectedCharacter)
        #expect(error(#"["\x"]"#) == .invalidEscape)
        #expect(error(#"["\u12"]"#) == .invalidEscape)
        #expect(error("[\"a\u{01}\"]") == .controlCharacterInString)
        #expect(JSONReader.firstGrammarError(in: Array("[\"".utf8) + [0xFF] + Array("\"]".utf8))?.reason == .invalidUnicode)
        #expect(error(String(repeating: "[", count: 100_000)) == .unexpectedEnd)
        #expect(JSONReader.firstGrammarError(in: Array(#"{"a": [[1]], "b": }"#.utf8))?.offset == 18)
    }
}
