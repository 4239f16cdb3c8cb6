@testable import HTTPServer
import Testing

/// Mutated versions of valid messages: the parser must never crash, and must reach the same verdict however
/// the bytes arrive.
@Suite("Parser: mutated input")
struct ParserMutationTests {
    static let seeds = [
        "GET /a?b=c HTTP/1.1\r\nHost: example.com\r\nX-Request-ID: r1\r\n\r\n",
        "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello",
        "PUT / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;x=\"y\"\r\nabc\r\n0\r\nT: v\r\n\r\n",
        "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
    ]

    @Test(arguments: 0..<seeds.count)
    func mutatedMessagesParseConsistently(_ seedIndex: Int) {
        var random = SplitMix64(state: UInt64(seedIndex + 1) * 0x1234_5678)
        let original = Array(Self.seeds[seedIndex].utf8)
        let interesting: [UInt8] = [0, 9, 10, 13, 32, 34, 44, 58, 59, 61, 127, 0xFF, UInt8(ascii: "0"), UInt8(ascii: "f")]
        for _ in 0..<150 {
            var input = original
            for _ in 0..<Int(random.next() % 3 + 1) {
                let position = Int(random.next() % UInt64(input.count))
                switch random.next() % 3 {
                case 0: input[position] = interesting[Int(random.next() % UInt64(interesting.count))]
                case 1: input.remove(at: position)
                default: input.insert(interesting[Int(random.next() % UInt64(interesting.count))], at: position)
                }
                if input.isEmpty { input = original }
            }
            let limits = HTTPParserLimits(maxRequestLineBytes: 64, maxHeaderBytes: 128, maxHeaderCount: 6, defaultBodyLimit: 16)
            let whole = ParserVerifier.events([input], limits: limits)
            let dripped = ParserVerifier.events(input.map { [$0] }, limits: limits)
            #expect(whole == dripped, "input \(input)")
        }
    }
}
