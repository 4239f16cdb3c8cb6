@testable import HTTPServer
import Testing

@Suite("Parser: valid messages")
struct ParserValidMessageTests {
    @Test func parsesSimpleGetIdenticallyHoweverSplit() throws {
        let events = ParserVerifier.verify("GET /v1/models?x=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n")
        #expect(events.count == 2)
        let head = try #require(events.first?.head)
        #expect(head.method == .get)
        #expect(head.target == "/v1/models?x=1")
        #expect(head.path == "/v1/models")
        #expect(head.query == "x=1")
        #expect(head.version == .http1_1)
        #expect(head.headers["host"] == "example.com")
        #expect(head.keepAlive)
        #expect(head.framing == .none)
        #expect(events[1] == .complete(body: []))
    }

    @Test func readsContentLengthBody() {
        let events = ParserVerifier.verify("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello")
        #expect(events.first?.head?.framing == .contentLength(5))
        #expect(events.last == .complete(body: Array("hello".utf8)))
        // 1*DIGIT: leading zeros do not count against the 18 digits that bound the value.
        let padded = ParserVerifier.verify("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0000000000000000000005\r\n\r\nhello")
        #expect(padded.first?.head?.framing == .contentLength(5))
        #expect(ParserVerifier.verify("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 000\r\n\r\n").first?.head?.framing == .contentLength(0))
    }

    @Test func decodesChunkedBodyWithExtensionsAndDropsTrailers() {
        let message = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n1 ; quoted=\"a \\\"b\\\"\" ; flag\r\n,\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n"
        let events = ParserVerifier.verify(message)
        #expect(events.count == 2)
        #expect(events.first?.head?.framing == .chunked)
        #expect(events.last == .complete(body: Array("hello, world".utf8)))
    }

    @Test func acceptsUpperCaseHexAndLeadingZerosInChunkSizes() {
        let message = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n000A\r\n0123456789\r\n0\r\n\r\n"
        #expect(ParserVerifier.verify(message).last == .complete(body: Array("0123456789".utf8)))
    }

    @Test func toleratesEmptyLinesBeforeRequestLine() {
        let events = ParserVerifier.verify("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(events.first?.head?.path == "/")
    }

    @Test func trimsOptionalWhitespaceAroundFieldValues() {
        let events = ParserVerifier.verify("GET / HTTP/1.1\r\nHost: a\r\nX-Pad: \t  padded value \t \r\nX-Empty:\r\n\r\n")
        #expect(events.first?.head?.headers["x-pad"] == "padded value")
        #expect(events.first?.head?.headers["X-Empty"] == "")
    }

    @Test func acceptsAbsoluteFormTargetAndRoutesOnItsPath() {
        let events = ParserVerifier.verify("GET http://example.com:8080/a/b?c=d HTTP/1.1\r\nHost: example.com\r\n\r\n")
        #expect(events.first?.head?.path == "/a/b")
        #expect(events.first?.head?.query == "c=d")
        let bare = ParserVerifier.verify("GET HTTP://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n")
        #expect(bare.first?.head?.path == "/")
    }

    /// Brackets are refused in paths and queries but are the IP literal's own in an absolute-form authority.
    @Test func acceptsAnIPLiteralInAnAbsoluteFormAuthority() {
        let events = ParserVerifier.verify("GET http://[::1]:8080/a?b=1 HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n")
        #expect(events.first?.head?.path == "/a")
        #expect(events.first?.head?.query == "b=1")
    }

    /// CONNECT's authority-form (RFC 9112 §3.2.3) parses, so that the router can answer 501 to the method.
    @Test func acceptsAuthorityFormWithAPortForConnect() {
        for target in ["example.com:443", "127.0.0.1:8080", "[::1]:443", "[2001:db8::1]:1"] {
            let events = ParserVerifier.verify("CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n\r\n")
            #expect(events.first?.head?.path == target, "CONNECT \(target)")
        }
    }

    @Test func acceptsAsteriskFormForOptions() {
        let events = ParserVerifier.verify("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(events.first?.head?.path == "*")
    }

    /// RFC 9112 §3.2.4: the last proxy turns `OPTIONS http://host:port` into `OPTIONS *`; an origin server that
    /// receives the absolute form with an empty path reads it the same way. Any other method's empty path is "/".
    @Test func readsOptionsToAnAbsoluteFormWithAnEmptyPathAsTheAsteriskForm() {
        let events = ParserVerifier.verify("OPTIONS http://www.example.org:8001 HTTP/1.1\r\nHost: www.example.org:8001\r\n\r\n")
        #expect(events.first?.head?.path == "*")
        let rooted = ParserVerifier.verify("OPTIONS http://www.example.org:8001/ HTTP/1.1\r\nHost: www.example.org:8001\r\n\r\n")
        #expect(rooted.first?.head?.path == "/")
        let get = ParserVerifier.verify("GET http://www.example.org:8001 HTTP/1.1\r\nHost: www.example.org:8001\r\n\r\n")
        #expect(get.first?.head?.path == "/")
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() {
        let closing = ParserVerifier.verify("GET / HTTP/1.0\r\n\r\n")
        #expect(closing.first?.head?.version == .http1_0)
        #expect(closing.first?.head?.keepAlive == false)
        let kept = ParserVerifier.verify("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")
        #expect(kept.first?.head?.keepAlive == true)
    }

    @Test func connectionCloseEndsKeepAliveOnHTTP11() {
        let events = ParserVerifier.verify("GET / HTTP/1.1\r\nHost: a\r\nConnection: foo, close\r\n\r\n")
        #expect(events.first?.head?.keepAlive == false)
    }

    @Test func notesExpectContinueOnlyForHTTP11() {
        let expecting = ParserVerifier.verify(
            "POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\nx")
        #expect(expecting.first?.head?.expectsContinue == true)
        let old = ParserVerifier.verify("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx")
        #expect(old.first?.head?.expectsContinue == false)
    }

    @Test func servesHigherHTTP1MinorVersionsAsHTTP11() {
        #expect(ParserVerifier.verify("GET / HTTP/1.2\r\nHost: a\r\n\r\n").first?.head?.version == .http1_1)
    }

    @Test func keepsObsTextInFieldValues() {
        let events = ParserVerifier.verify(Array("GET / HTTP/1.1\r\nHost: a\r\nX-Latin: caf".utf8) + [0xE9] + Array("\r\n\r\n".utf8))
        #expect(events.count == 2)
    }

    @Test func parsesManyPipelinedMessagesFromOneBuffer() {
        var input = ""
        var expectedBodies: [[UInt8]] = []
        for index in 0..<20 {
            switch index % 3 {
            case 0:
                input += "GET /\(index) HTTP/1.1\r\nHost: a\r\n\r\n"
                expectedBodies.append([])
            case 1:
                input += "POST /\(index) HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
                expectedBodies.append(Array("abc".utf8))
            default:
                input += "PUT /\(index) HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nxy\r\n0\r\n\r\n"
                expectedBodies.append(Array("xy".utf8))
            }
        }
        let events = ParserVerifier.verify(input)
        #expect(events.count == 40)
        #expect(events.compactMap(\.head).map(\.path) == (0..<20).map { "/\($0)" })
        #expect(events.compactMap(\.body) == expectedBodies)
    }

    @Test func raisedBodyLimitLetsALargerBodyThrough() {
        var parser = HTTPRequestParser(limits: HTTPParserLimits(defaultBodyLimit: 4))
        parser.append(Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n0123456789".utf8))
        #expect(parser.next()?.head != nil)
        parser.bodyLimit = 10
        #expect(parser.next() == .complete(body: Array("0123456789".utf8)))
        #expect(parser.isIdle)
    }

    @Test func reportsIdleOnlyBetweenMessages() {
        var parser = HTTPRequestParser()
        #expect(parser.isIdle)
        parser.append(Array("GET / HT".utf8))
        #expect(parser.next() == nil)
        #expect(!parser.isIdle)
        parser.append(Array("TP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(parser.next()?.head != nil)
        #expect(parser.next() == .complete(body: []))
        #expect(parser.isIdle)
        // Empty lines before a request line begin no request (RFC 9112 §2.2); part of one is a start.
        parser.append(Array("\r\n\r\n".utf8))
        #expect(parser.next() == nil)
        #expect(parser.isIdle)
        parser.append(Array("\r".utf8))
        #expect(parser.next() == nil)
        #expect(!parser.isIdle)
        parser.append(Array("\nGET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(parser.next()?.head != nil)
    }
}
