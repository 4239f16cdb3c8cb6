@testable import HTTPServer
import Testing

/// One malformed or over-limit input and the error it must produce, whichever way it is split.
struct ParserCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: [UInt8]
    let expected: HTTPParseError
    var limits = HTTPParserLimits()

    init(_ name: String, _ input: String, _ expected: HTTPParseError, limits: HTTPParserLimits = HTTPParserLimits()) {
        self.name = name
        self.input = Array(input.utf8)
        self.expected = expected
        self.limits = limits
    }

    init(_ name: String, bytes: [UInt8], _ expected: HTTPParseError) {
        self.name = name
        self.input = bytes
        self.expected = expected
    }

    var testDescription: String { name }
}
