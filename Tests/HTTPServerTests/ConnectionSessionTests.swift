import Foundation
@testable import HTTPServer
import Testing

@Suite("Connection session (no socket)")
struct ConnectionSessionTests {
    @Test func answersPipelinedRequestsInOrder() {
        let connection = InMemoryConnection()
        let responses = connection.send(
            "GET /items/1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhiGET /items/3 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(responses.map(\.status) == [200, 200, 200])
        #expect(responses.map(\.bodyText) == ["1", "hi", "3"])
        #expect(!connection.session.closeAfterFlush)
    }

    @Test func echoesAcceptableRequestIDAndReplacesAnInvalidOne() throws {
        let connection = InMemoryConnection()
        let given = connection.send("GET / HTTP/1.1\r\nHost: a\r\nX-Request-ID: abc-123\r\n\r\n")
        #expect(given.first?.header("X-Request-ID") == "abc-123")
        let tooLong = String(repeating: "x", count: 129)
        let replaced = connection.send("GET / HTTP/1.1\r\nHost: a\r\nX-Request-ID: \(tooLong)\r\n\r\n")
        let generated = try #require(replaced.first?.header("X-Request-ID"))
        #expect(generated != tooLong)
        #expect(generated.count == 32)
        let spaced = connection.send("GET / HTTP/1.1\r\nHost: a\r\nX-Request-ID: a b\r\n\r\n")
        #expect(spaced.first?.header("X-Request-ID")?.count == 32)
        // Two lines are the one value "a, b" (RFC 9110 section 5.3), which is not acceptable either.
        let twice = connection.send("GET / HTTP/1.1\r\nHost: a\r\nX-Request-ID: a\r\nX-Request-ID: b\r\n\r\n")
        let fresh = try #require(twice.first?.header("X-Request-ID"))
        #expect(fresh.count == 32)
    }

    @Test func putsRequestIDOnParserErrors() throws {
        let connection = InMemoryConnection()
        let response = try #require(connection.send("GET / HTTP/1.1\r\nHost : a\r\n\r\n").first)
        #expect(response.status == 400)
        #expect(response.header("X-Request-ID")?.count == 32)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("Connection") == "close")
        #expect(connection.session.closeAfterFlush)
    }

    /// A refused field line is located in `errors[]`: by its name in `pointer`, as the routes name header fields,
    /// and by its line in the detail; a name that may not be repeated is left out (HTTP probe, 7 December).
    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: a\r\nAccept: */*\r\nX-Trace: a\u{1}b\r\n\r\n", "X-Trace", "header field line 3 has a value holding a control character"),
        ("GET / HTTP/1.1\r\nHost: a\r\nX-Folded: a\r\n b\r\n\r\n", "X-Folded", "header field line 3 begins with whitespace"),
        ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", "Host", "header field line 1 has whitespace between the field name and the colon"),
        ("GET / HTTP/1.1\r\nHost: a\r\nno colon here\r\n\r\n", "", "header field line 2 has no colon"),
        ("GET / HTTP/1.1\r\nHost: a\r\nX(A): b\r\n\r\n", "", "header field line 2 has a field name that is not a valid token"),
        ("GET / HTTP/1.1\r\nHost: a\r\njane.doe: a\u{0}\r\n\r\n", "", "header field line 2 has a value holding a control character"),
        ("GET / HTTP/1.1\r\nHost: a\r\nX-4111111111111111: a\u{0}\r\n\r\n", "", "header field line 2 has a value"),
        ("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T: a\u{7F}\r\n\r\n", "X-T", "trailer field line 1 has a value holding a control character"),
    ])
    func locatesARefusedFieldLine(request: String, pointer: String, detail: String) throws {
        let connection = InMemoryConnection()
        let response = try #require(connection.send(request).first)
        #expect(response.status == 400)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let errors = try #require(body["errors"] as? [[String: String]])
        #expect(errors.count == 1)
        #expect(errors.first?["pointer"] == pointer)
        // A field's name is no pointer into the body: `in` says so.
        #expect(errors.first?["in"] == "header")
        #expect(errors.first?["detail"]?.contains(detail) == true, "\(errors)")
        #expect(!response.bodyText.contains("jane") && !response.bodyText.contains("4111"))
    }

    /// A field refused for its meaning, not its syntax (framing, Host, media type), is named in `errors[]` too: the
    /// prose alone gave a client no pointer (HTTP probe, 7 December). Never its value.
    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: a:80:80\r\n\r\n", 400, ["Host"]),
        ("GET / HTTP/1.1\r\n\r\n", 400, ["Host"]),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, ["Host"]),
        ("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400, ["Content-Length"]),
        ("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: x1\r\n\r\n", 400, ["Content-Length"]),
        ("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400, ["Content-Length", "Transfer-Encoding"]),
        ("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, identity\r\n\r\n", 400, ["Transfer-Encoding"]),
        ("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501, ["Transfer-Encoding"]),
        ("POST /json HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}", 415, ["Content-Type"]),
        ("POST /json HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}", 415, ["Content-Type"]),
        ("POST /json HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}", 415, ["Content-Encoding"]),
    ])
    func namesAFieldRefusedForItsMeaning(request: String, status: Int, pointers: [String]) throws {
        let connection = InMemoryConnection()
        let response = try #require(connection.send(request).first)
        #expect(response.status == status)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let errors = try #require(body["errors"] as? [[String: String]])
        #expect(errors.map { $0["pointer"] } == pointers)
        #expect(errors.allSatisfy { $0["in"] == "header" })
        #expect(errors.allSatisfy { $0["detail"] == body["detail"] as? String })
        #expect(!response.bodyText.contains("a:80:80") && !response.bodyText.contains("text/plain") && !response.bodyText.contains("gzip"))
    }

    /// A header name shaped like an API key's secret (or holding a key's prefix) is a secret sent in the wrong place:
    /// not repeated, by the rule that keeps such an X-Request-ID out of the log (HTTP regression probe, 7 December).
    @Test func aRefusedFieldNamedLikeAKeyIsNotRepeated() throws {
        var configuration = TestServer.configuration()
        configuration.requestIDRefusedMarkers = ["ti_sandbox_"]
        configuration.requestIDRefusedLetterAndDigitCount = 32
        for (name, repeated) in [("YxwU8gt7Bl7ThCpml2C-Q9Qhmm7g5_eUKJzg21PA3Mc", false), ("ti_sandbox_k0f03c225", false), ("X-Trace-Id", true)] {
            let connection = InMemoryConnection(configuration: configuration)
            let response = try #require(connection.send("GET / HTTP/1.1\r\nHost: a\r\n\(name): a\u{1}b\r\n\r\n").first)
            #expect(response.status == 400)
            #expect(response.bodyText.contains(#""pointer":"\#(repeated ? name : "")""#), "\(response.bodyText)")
            #expect(response.bodyText.contains(name) == repeated)
        }
        // A folded trailer names the trailer it continues, as a folded header line does.
        let folded = InMemoryConnection(configuration: configuration)
        let response = try #require(folded.send("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-A: 1\r\n folded\r\n\r\n").first)
        #expect(response.bodyText.contains(#""pointer":"X-A""#) && response.bodyText.contains("trailer field line 2"), "\(response.bodyText)")
    }

    @Test func answersUnknownPathWith404AndKeepsTheConnection() throws {
        let connection = InMemoryConnection()
        let response = try #require(connection.send("GET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n").first)
        #expect(response.status == 404)
        #expect(response.bodyText.contains("https://trust-insights.dev/problems/not-found"))
        #expect(!connection.session.closeAfterFlush)
    }

    @Test func answersWrongMethodWith405AndAllow() throws {
        let connection = InMemoryConnection()
        let response = try #require(connection.send("PUT /items/7 HTTP/1.1\r\nHost: a\r\n\r\n").first)
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, DELETE, HEAD, OPTIONS")
    }

    @Test func answersHeadOnGetRouteWithoutBodyButWithLength() throws {
        let connection = InMemoryConnection()
        connection.session.receive(UnsafeRawBufferPointer(start: nil, count: 0), now: 0)
        Array("HEAD /items/abcd HTTP/1.1\r\nHost: a\r\n\r\n".utf8).withUnsafeBytes {
            connection.session.receive($0, now: 0)
        }
        let bytes = connection.session.output.takeAll()
        let response = try #require(ParsedResponse.parse(bytes, bodyless: true))
        #expect(response.0.status == 200)
        #expect(response.0.header("Content-Length") == "4")
        #expect(response.consumed == bytes.count)
    }

    @Test func answersOptionsWithAllowWhenNoHandlerExists() throws {
        let connection = InMemoryConnection()
        let response = try #require(connection.send("OPTIONS /items/1 HTTP/1.1\r\nHost: a\r\n\r\n").first)
        #expect(response.status == 204)
        #expect(response.header("Allow") == "GET, DELETE, HEAD, OPTIONS")
        #expect(response.header("Content-Length") == nil)
        let star = try #require(connection.send("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n").first)
        #expect(star.status == 204)
        let absolute = try #require(connection.send("OPTIONS http://a HTTP/1.1\r\nHost: a\r\n\r\n").first)
        #expect(absolute.status == 204)
    }

    @Test func refusesOversizedContentLengthBeforeTheBodyArrives() throws {
        let connection = InMemoryConnection()
        let response = try #require(connection.send("POST /small HTTP/1.1\r\nHost: a\r\nContent-Length: 17\r\n\r\n").first)
        #expect(response.status == 413)
        #expect(response.bodyText.contains("body-too-large"))
        #expect(connection.session.closeAfterFlush)
        // RFC 9110 §8.6: any run of digits is a length; one too long for an integer is simply too large.
        for length in ["1000000000000000000", "99999999999999999999999999999", "000\(String(repeating: "9", count: 40))"] {
            let huge = InMemoryConnection()
            let answer = try #require(huge.send("POST /small HTTP/1.1\r\nHost: a\r\nContent-Length: \(length)\r\n\r\n").first)
            #expect(answer.status == 413, "\(length)")
            #expect(huge.session.closeAfterFlush)
        }
    }

    @Test func routeMayRaiseTheBodyLimit() throws {
        var configuration = TestServer.configuration()
        configuration.defaultBodyLimit = 4
        let connection = InMemoryConnection(configuration: configuration)
        let body = String(repeating: "z", count: 1000)
        let response = try #require(
            connection.send("POST /large HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n\(body)").first)
        #expect(response.bodyText == "1000")
        let refused = try #require(
            connection.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello").first)
        #expect(refused.status == 413)
    }

    @Test func refusesChunkedBodyOverTheRouteLimitOnceDecoded() throws {
        let connection = InMemoryConnection()
        let chunks = "POST /small HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n9\r\n123456789\r\n0\r\n\r\n"
        let response = try #require(connection.send(chunks).first)
        #expect(response.status == 413)
    }

    @Test func refusesWrongContentTypeWith415ButIgnoresParameters() throws {
        let connection = InMemoryConnection()
        let wrong = try #require(
            connection.send("POST /json HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}").first)
        #expect(wrong.status == 415)
        let fresh = InMemoryConnection()
        let missing = try #require(fresh.send("POST /json HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}").first)
        #expect(missing.status == 415)
        let other = InMemoryConnection()
        let right = try #require(
            other.send("POST /json HTTP/1.1\r\nHost: a\r\nContent-Type: Application/JSON; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}").first)
        #expect(right.status == 201)
    }

    @Test func sendsContinueOnlyWhenTheRouteAcceptsTheRequest() throws {
        let connection = InMemoryConnection()
        let interim = connection.send("POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")
        #expect(interim.map(\.status) == [100])
        #expect(connection.send("abc").map(\.bodyText) == ["abc"])

        let refused = InMemoryConnection()
        let final = refused.send("POST /small HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 99\r\n\r\n")
        #expect(final.map(\.status) == [413])
    }

    /// RFC 9110 §10.1.1 and §5.3: `Expect` is a list, which may span lines; 100-continue anywhere in it is answered.
    @Test func continueIsSentWhenTheExpectationIsPartOfAList() throws {
        for expect in ["Expect: 100-continue, foo", "Expect: foo, 100-Continue", "Expect: 100-continue,", "Expect: 100-continue\r\nExpect: foo"] {
            let connection = InMemoryConnection()
            let interim = connection.send("POST /echo HTTP/1.1\r\nHost: a\r\n\(expect)\r\nContent-Length: 3\r\n\r\n")
            #expect(interim.map(\.status) == [100], "\(expect)")
            #expect(connection.send("abc").map(\.bodyText) == ["abc"])
        }
        let none = InMemoryConnection()
        #expect(none.send("POST /echo HTTP/1.1\r\nHost: a\r\nExpect: foo\r\nContent-Length: 3\r\n\r\n").isEmpty)
        #expect(none.send("abc").map(\.bodyText) == ["abc"])
    }

    /// A route's check of the header section answers before the body is read and before `100 Continue`: the
    /// server takes in no body from a client the route would refuse anyway, and closes the connection after.
    @Test func refusesOnTheHeaderSectionBeforeReadingTheBody() throws {
        let refused = InMemoryConnection()
        let early = refused.send("POST /guarded HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000\r\n\r\n")
        #expect(early.map(\.status) == [401])
        #expect(early.first?.header("Connection") == "close")
        #expect(refused.session.closeAfterFlush)

        let interimRefused = InMemoryConnection()
        let noContinue = interimRefused.send("POST /guarded HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        #expect(noContinue.map(\.status) == [401])

        let admitted = InMemoryConnection()
        #expect(admitted.send("POST /guarded HTTP/1.1\r\nHost: a\r\nToken: ok\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
            .map(\.status) == [100])
        #expect(admitted.send("hello").map(\.bodyText) == ["5"])
        // No body, nothing to protect: the handler decides, as for any route.
        let bodiless = InMemoryConnection()
        #expect(bodiless.send("POST /guarded HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n").map(\.bodyText) == ["0"])
    }

    /// A route that authenticates in its handler checks the header section alone only when the body has not all
    /// arrived with it: a caller without access is answered at once instead of being waited for (and timed out
    /// with a 408), while a request whose body came with its head is decided by the handler alone.
    @Test func checksTheHeaderSectionOnlyWhileTheBodyIsStillToCome() throws {
        let slow = InMemoryConnection()
        let early = slow.send("POST /awaiting HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhe")
        #expect(early.map(\.status) == [401])
        #expect(early.first?.header("Connection") == "close")
        #expect(slow.session.closeAfterFlush)

        let chunked = InMemoryConnection()
        #expect(chunked.send("POST /awaiting HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            .map(\.status) == [401])

        // The whole body is here: the handler's own refusal, and the connection stays for the next request.
        let whole = InMemoryConnection()
        let decided = whole.send("POST /awaiting HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello")
        #expect(decided.map(\.status) == [403])
        #expect(!whole.session.closeAfterFlush)

        // A caller with access whose body comes later is served as before.
        let admitted = InMemoryConnection()
        #expect(admitted.send("POST /awaiting HTTP/1.1\r\nHost: a\r\nToken: ok\r\nContent-Length: 5\r\n\r\nhe").isEmpty)
        #expect(admitted.send("llo").map(\.bodyText) == ["5"])
    }

    /// A refusal decided on the header section keeps the connection when the body is already in hand: it is read
    /// and set aside, and the request behind it is answered. A body still to come is not waited for.
    @Test func aRefusalKeepsTheConnectionWhenItsBodyIsAlreadyInHand() throws {
        let next = "GET /items/9 HTTP/1.1\r\nHost: a\r\n\r\n"
        for refused in [
            "POST /nowhere HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
            "POST /items/7 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
            "POST /json HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}",
            "POST /guarded HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
            // Expect: 100-continue, with the body sent without waiting: no 100, and the framing is whole.
            "POST /nowhere HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello",
        ] {
            let connection = InMemoryConnection()
            let responses = connection.send(refused + next)
            #expect(responses.count == 2, "\(refused)")
            #expect(responses.first.map { (400..<500).contains($0.status) } == true, "\(refused)")
            #expect(responses.first?.header("Connection") == nil, "\(refused)")
            #expect(responses.last?.status == 200, "\(refused)")
            #expect(responses.last?.bodyText == "9", "\(refused)")
            #expect(!connection.session.closeAfterFlush, "\(refused)")
        }
        // Half the body: answered at once, and closed.
        let partial = InMemoryConnection()
        let early = partial.send("POST /nowhere HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n{}")
        #expect(early.map(\.status) == [404])
        #expect(early.first?.header("Connection") == "close")
        #expect(partial.session.closeAfterFlush)
        // Expect: 100-continue and no body yet: the client may be waiting to send it, so no later byte can be
        // framed; answered at once (not with 100), and closed.
        let waiting = InMemoryConnection()
        let refusedWaiting = waiting.send("POST /nowhere HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        #expect(refusedWaiting.map(\.status) == [404])
        #expect(waiting.session.closeAfterFlush)
        // A chunked body is not measured ahead: closed.
        let chunked = InMemoryConnection()
        let chunkedEarly = chunked.send("POST /nowhere HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
        #expect(chunkedEarly.first?.status == 404)
        #expect(chunked.session.closeAfterFlush)
    }

    /// RFC 9110 §10.1.1: a status the header section decides is sent instead of `100 Continue`; a route that
    /// authenticates in its handler says so through `checkBeforeEarlyAnswer`.
    @Test func answersAMissingCredentialInsteadOfContinue() throws {
        let anonymous = InMemoryConnection()
        let refused = anonymous.send("POST /checked HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
        #expect(refused.map(\.status) == [401])
        #expect(!String(decoding: anonymous.rawOutput, as: UTF8.self).contains("100 Continue"))
        let admitted = InMemoryConnection()
        #expect(admitted.send("POST /checked HTTP/1.1\r\nHost: a\r\nToken: ok\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
            .map(\.status) == [100])
        #expect(admitted.send("{}").map(\.status) == [201])
    }

    /// RFC 9110 §13: the server sends no entity tags, so a tag in If-Match never matches and the method is not
    /// performed; `*` matches a target that answers GET; the date conditions are ignored.
    @Test func evaluatesPreconditionsOfAnUnsafeMethodBeforeItsHandler() throws {
        func status(_ method: String, _ path: String, _ fields: String, token: Bool = true) throws -> Int {
            let connection = InMemoryConnection()
            let auth = token ? "Token: ok\r\n" : ""
            let response = try #require(connection.send(
                "\(method) \(path) HTTP/1.1\r\nHost: a\r\n\(auth)\(fields)Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}").first)
            return response.status
        }
        #expect(try status("PUT", "/records/1", "If-Match: \"v1\"\r\n") == 412)
        #expect(try status("PUT", "/records/1", "If-Match: W/\"v1\", \"v2\"\r\n") == 412)
        #expect(try status("PUT", "/records/1", "If-Match: *\r\n") == 200)
        #expect(try status("PUT", "/records/1", "If-None-Match: *\r\n") == 412)
        #expect(try status("PUT", "/records/1", "If-None-Match: \"v1\"\r\n") == 200)
        #expect(try status("PUT", "/records/1", "If-Unmodified-Since: Sat, 01 Jan 2000 00:00:00 GMT\r\n") == 200)
        // The credential is judged first (§13.2.1: only a 2xx is subject to preconditions).
        #expect(try status("PUT", "/records/1", "If-Match: \"v1\"\r\n", token: false) == 401)
        // A path without GET has no current representation: `*` does not match, and If-None-Match: * holds.
        #expect(try status("POST", "/checked", "If-Match: *\r\n") == 412)
        #expect(try status("POST", "/checked", "If-None-Match: *\r\n") == 201)
        // What the route refuses before reading content comes before the precondition (§13.2.1), the credential
        // before both; without a refusal the precondition still decides.
        #expect(try status("PUT", "/records/bad", "") == 400)
        #expect(try status("PUT", "/records/bad", "If-Match: \"v1\"\r\n") == 400)
        #expect(try status("PUT", "/records/1?x=1", "If-None-Match: *\r\n") == 400)
        #expect(try status("PUT", "/records/bad", "If-Match: \"v1\"\r\n", token: false) == 401)
        #expect(try status("PUT", "/records/2", "If-Match: \"v1\"\r\n") == 412)
    }

    /// The server's own `204` to OPTIONS is a 2xx, so its conditions are judged as an unsafe method's are (RFC 9110
    /// §13.2.1); they were ignored (HTTP probe, 7 December: `If-Match: "x"` got 204).
    @Test func judgesTheConditionsOfAnOptionsRequest() throws {
        func response(_ target: String, _ fields: String) throws -> ParsedResponse {
            try #require(InMemoryConnection().send("OPTIONS \(target) HTTP/1.1\r\nHost: a\r\n\(fields)\r\n").first)
        }
        let failed = try response("/items/7", "If-Match: \"v1\"\r\n")
        #expect(failed.status == 412)
        #expect(failed.header("Allow") == nil)
        #expect(try response("/items/7", "If-Match: *\r\n").status == 204)
        #expect(try response("/items/7", "If-None-Match: *\r\n").status == 412)
        #expect(try response("/items/7", "If-None-Match: \"v1\"\r\n").status == 204)
        #expect(try response("/items/7", "If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT\r\n").status == 204)
        // A path without GET, and the server as a whole, have no current representation.
        #expect(try response("/checked", "If-Match: *\r\n").status == 412)
        #expect(try response("/checked", "If-None-Match: *\r\n").status == 204)
        #expect(try response("*", "If-Match: *\r\n").status == 412)
        #expect(try response("*", "").status == 204)
        // A body over the limit is refused for its size first, as it would be without the condition.
        #expect(try response("/items/7", "If-Match: \"v1\"\r\nContent-Length: 100000000\r\n").status == 413)
        #expect(try response("/items/7", "Content-Length: 100000000\r\n").status == 413)
    }

    @Test func answersNotModifiedOrPreconditionFailedInPlaceOfASafeMethodsSuccess() throws {
        let connection = InMemoryConnection()
        let notModified = try #require(connection.send("GET /items/7 HTTP/1.1\r\nHost: a\r\nIf-None-Match: *\r\n\r\n").first)
        #expect(notModified.status == 304)
        #expect(notModified.bodyText.isEmpty)
        #expect(notModified.header("Content-Type") == nil)
        #expect(notModified.header("Content-Length") == nil)
        let head = try #require(connection.send("HEAD /items/7 HTTP/1.1\r\nHost: a\r\nIf-None-Match: *\r\n\r\n").first)
        #expect(head.status == 304)
        #expect(try #require(connection.send("GET /items/7 HTTP/1.1\r\nHost: a\r\nIf-Match: \"v1\"\r\n\r\n").first).status == 412)
        #expect(try #require(connection.send("GET /items/7 HTTP/1.1\r\nHost: a\r\nIf-None-Match: \"v1\"\r\n\r\n").first).bodyText == "7")
        #expect(try #require(connection.send("GET /items/7 HTTP/1.1\r\nHost: a\r\nIf-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT\r\n\r\n").first).status == 200)
        // Only a 2xx answer is replaced.
        #expect(try #require(connection.send("GET /teapot HTTP/1.1\r\nHost: a\r\nIf-None-Match: *\r\n\r\n").first).status == 409)
    }

    /// RFC 9110 §13.1.1 and §13.1.2 against an answer with an entity tag: If-None-Match compares weakly and turns a
    /// GET into 304 carrying the tag (§15.4.5), If-Match compares strongly, a malformed list matches nothing.
    @Test func judgesEntityTagsAgainstTheAnswersETag() throws {
        let connection = InMemoryConnection()
        func get(_ fields: String) throws -> ParsedResponse {
            try #require(connection.send("GET /tagged HTTP/1.1\r\nHost: a\r\n\(fields)\r\n").first)
        }
        let plain = try get("")
        #expect(plain.status == 200 && plain.header("ETag") == #""v2""#)
        for condition in [#""v2""#, #"W/"v2""#, #""v1", "v2""#, #""v1",W/"v2""#, "*", #" "v1" , "v2" "#] {
            let response = try get("If-None-Match: \(condition)\r\n")
            #expect(response.status == 304, "\(condition)")
            #expect(response.header("ETag") == #""v2""#)
            #expect(response.header("Cache-Control") == "no-cache")
            #expect(response.bodyText.isEmpty && response.header("Content-Type") == nil)
        }
        // Two field lines are one list (RFC 9110 §5.3).
        #expect(try get("If-None-Match: \"v1\"\r\nIf-None-Match: \"v2\"\r\n").status == 304)
        // A malformed field matches nothing, whichever order its parts come in.
        for condition in [#""v1""#, #""V2""#, "v2", #""v2"#, #"w/"v2""#, #""v1" "v2""#, #"W/ "v2""#, "",
                          #"garbage, "v2""#, #""v2", garbage"#, #""v2", "unterm"#, #"*, "v2""#] {
            #expect(try get("If-None-Match: \(condition)\r\n").status == 200, "\(condition)")
        }
        #expect(try get("If-None-Match: \"v2\"\r\nIf-None-Match: garbage\r\n").status == 200)
        #expect(try get("If-None-Match: garbage\r\nIf-None-Match: \"v2\"\r\n").status == 200)
        #expect(try get(#"If-Match: "v2", garbage"# + "\r\n").status == 412)
        #expect(try get(#"If-Match: garbage, "v2""# + "\r\n").status == 412)
        #expect(try get(#"If-Match: "v2""# + "\r\n").status == 200)
        #expect(try get(#"If-Match: "v1", "v2""# + "\r\n").status == 200)
        #expect(try get(#"If-Match: W/"v2""# + "\r\n").status == 412)
        #expect(try get(#"If-Match: "v1""# + "\r\n").status == 412)
        // An answer without a tag matches no tag, as before.
        #expect(try #require(connection.send("GET /items/7 HTTP/1.1\r\nHost: a\r\nIf-None-Match: \"7\"\r\n\r\n").first).status == 200)
    }

    @Test func entityTagListsParseAsRFC9110Writes() {
        #expect(EntityTag.list([#""a", W/"b",,"c,d""#])?.map { "\($0.isWeak ? "W/" : "")\($0.opaque)" } == ["a", "W/b", "c,d"])
        #expect(EntityTag.list([#""a", "b""#, #"W/"c""#])?.map(\.opaque) == ["a", "b", "c"])
        #expect(EntityTag.list([#""a" junk, "b""#]) == nil)
        #expect(EntityTag.list([#""a""#, "junk"]) == nil)
        #expect(EntityTag.list([#""unterminated"#]) == nil)
        #expect(EntityTag(field: #" "x" "#)?.opaque == "x")
        #expect(EntityTag(field: #""x" "y""#) == nil)
        #expect(EntityTag(field: "x") == nil)
    }

    /// A chunked body over the limit is found while it is read: a client without access still hears 401, not 413,
    /// as it does for a declared length over the limit.
    @Test func aChunkedBodyOverTheLimitIsJudgedByTheRoutesCheckFirst() throws {
        var router = SampleRoutes.router()
        router.add(.post, "/checked-small", options: RouteOptions(bodyLimit: 8, checkBeforeEarlyAnswer: { headers in
            headers["Token"] == "ok" ? nil : HTTPError(.unauthorized, slug: "unauthenticated")
        })) { _, _ in HTTPResponse.text(.ok, "ok") }
        let chunked = "POST /checked-small HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n%@\r\n10\r\n0123456789abcdef\r\n0\r\n\r\n"
        let anonymous = InMemoryConnection(router: router)
        #expect(anonymous.send(chunked.replacingOccurrences(of: "%@", with: "")).map(\.status) == [401])
        let admitted = InMemoryConnection(router: router)
        #expect(admitted.send(chunked.replacingOccurrences(of: "%@", with: "Token: ok\r\n")).map(\.status) == [413])
    }

    /// RFC 9110 §9.3.2: a HEAD refused before its head was complete (a field error, a timeout) still gets no body.
    @Test func aHeadRefusedBeforeItsHeadIsCompleteGetsNoBody() throws {
        for (request, status) in [("HEAD / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "400"), ("HEAD / HTTP/1.1\r\nHo st: a\r\n\r\n", "400")] {
            let connection = InMemoryConnection()
            _ = connection.send(request)
            let text = String(decoding: connection.rawOutput, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 \(status) "), "\(text)")
            #expect(text.hasSuffix("\r\n\r\n"), "\(text)")
            #expect(text.contains("Content-Type: application/problem+json"))
        }
        // Timed out with the head, or the request line itself, still arriving (behind an answered request too).
        for partial in ["HEAD / HTTP/1.1\r\nHost: a\r\n", "HEAD / HT", "\r\nHEAD /", "GET / HTTP/1.1\r\nHost: a\r\n\r\nHEAD /he"] {
            let slow = InMemoryConnection()
            _ = slow.send(partial)
            slow.session.requestTimedOut()
            _ = slow.drain()
            let text = String(decoding: slow.rawOutput, as: UTF8.self)
            #expect(text.contains("HTTP/1.1 408 "), "\(text)")
            #expect(text.hasSuffix("\r\n\r\n"), "\(text)")
        }
        let slowGet = InMemoryConnection()
        _ = slowGet.send("GET / HT")
        slowGet.session.requestTimedOut()
        _ = slowGet.drain()
        #expect(String(decoding: slowGet.rawOutput, as: UTF8.self).hasSuffix("}"))
        // Refused at the request line itself, once its method is known to be HEAD: no body either.
        for (request, status) in [
            ("HEAD /a%zz HTTP/1.1\r\nHost: a\r\n\r\n", "400"), ("HEAD * HTTP/1.1\r\nHost: a\r\n\r\n", "400"),
            ("HEAD / HTTP/2.0\r\nHost: a\r\n\r\n", "505"), ("HEAD / HTTP/1.x\r\nHost: a\r\n\r\n", "400"),
            ("HEAD /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n", "414"),
            ("HEAD / HTTP/1.1\nHost: a\r\n\r\n", "400"),
        ] {
            let connection = InMemoryConnection()
            _ = connection.send(request)
            let text = String(decoding: connection.rawOutput, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 \(status) "), "\(text)")
            #expect(text.hasSuffix("\r\n\r\n"), "no body after a refused HEAD: \(text)")
        }
        // A GET refused the same way keeps its problem document.
        let get = InMemoryConnection()
        _ = get.send("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        #expect(String(decoding: get.rawOutput, as: UTF8.self).hasSuffix("}"))
    }

    /// Framing is the server's: a handler's body on a 204 or 304 is not sent (it has no length to be read by), and
    /// a reason phrase that could split the head is left out (RFC 9112 §4).
    @Test func aHandlerCannotBreakTheResponsesFraming() throws {
        var router = SampleRoutes.router()
        router.add(.get, "/empty") { _, _ in HTTPResponse(status: .noContent, body: Array("stray".utf8)) }
        router.add(.get, "/split") { _, _ in HTTPResponse(status: HTTPStatus(code: 299, reasonPhrase: "Odd\r\nX-Injected: 1"), body: Array("ok".utf8)) }
        let connection = InMemoryConnection(router: router)
        _ = connection.send("GET /empty HTTP/1.1\r\nHost: a\r\n\r\nGET /split HTTP/1.1\r\nHost: a\r\n\r\n")
        let text = String(decoding: connection.rawOutput, as: UTF8.self)
        #expect(!text.contains("stray"))
        #expect(!text.contains("X-Injected"))
        #expect(text.contains("HTTP/1.1 204 No Content\r\n"))
        #expect(text.contains("HTTP/1.1 299 \r\n"))
        #expect(text.hasSuffix("\r\n\r\nok"))
    }

    @Test func closesAfterHTTP10ResponseUnlessKeepAliveWasAsked() throws {
        let connection = InMemoryConnection()
        let kept = try #require(connection.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").first)
        #expect(kept.header("Connection") == "keep-alive")
        #expect(!connection.session.closeAfterFlush)
        let closed = try #require(connection.send("GET / HTTP/1.0\r\n\r\n").first)
        #expect(closed.header("Connection") == "close")
        #expect(connection.session.closeAfterFlush)
    }

    @Test func echoesConnectionCloseAndStopsReading() throws {
        let connection = InMemoryConnection()
        let responses = connection.send("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(responses.count == 1)
        #expect(responses.first?.header("Connection") == "close")
        #expect(!connection.session.wantsRead)
    }

    @Test func turnsUnknownErrorsInto500WithoutDetail() throws {
        let connection = InMemoryConnection()
        let response = try #require(connection.send("GET /fail HTTP/1.1\r\nHost: a\r\n\r\n").first)
        #expect(response.status == 500)
        #expect(!response.bodyText.contains("do-not-leak"))
        #expect(!response.bodyText.contains("Secret"))
        let known = try #require(connection.send("GET /teapot HTTP/1.1\r\nHost: a\r\n\r\n").first)
        #expect(known.status == 409)
        #expect(known.bodyText.contains("already there"))
    }

    @Test func answersRequestTimeoutWith408AndCloses() throws {
        let connection = InMemoryConnection()
        #expect(connection.send("GET / HTTP/1.1\r\nHost:", now: 100).isEmpty)
        #expect(connection.session.deadlines.expiry(at: 100 + 4_000_000_000) == nil)
        #expect(connection.session.deadlines.expiry(at: 100 + 5_000_000_000) == .request)
        connection.session.requestTimedOut()
        let response = try #require(connection.drain().first)
        #expect(response.status == 408)
        #expect(connection.session.closeAfterFlush)
    }

    /// Empty lines before a request line are ignored (RFC 9112 §2.2; old clients send a CRLF after a POST body): they
    /// begin no request, so an idle connection that got one is idle still, with the deadline it had, and closes
    /// quietly at it; no 408 is written onto it.
    @Test func anEmptyLineOnAnIdleConnectionBeginsNoRequest() throws {
        var configuration = TestServer.configuration()
        configuration.requestTimeout = .seconds(5)
        configuration.idleTimeout = .seconds(60)
        let second: UInt64 = 1_000_000_000
        // After a request, and a CRLF sent behind it.
        let connection = InMemoryConnection(configuration: configuration)
        #expect(connection.send("GET /items/1 HTTP/1.1\r\nHost: a\r\n\r\n\r\n").map(\.status) == [200])
        #expect(connection.session.flush(to: -1, now: 0, peerClosed: false, draining: false) == .open)
        #expect(connection.session.isIdle)
        #expect(connection.session.deadlines.request == nil)
        #expect(connection.session.deadlines.idle == 60 * second)
        // More empty lines later change nothing, and do not push the idle deadline back.
        #expect(connection.send("\r\n", now: 30 * second).isEmpty)
        #expect(connection.session.isIdle)
        #expect(connection.session.deadlines.expiry(at: 59 * second) == nil)
        #expect(connection.session.deadlines.expiry(at: 60 * second) == .idle)
        // The next request is served as usual, and its deadline runs from its own first byte.
        #expect(connection.send("GET /items/2 HTTP/1.1\r\nHost:", now: 40 * second).isEmpty)
        #expect(connection.session.deadlines.request == 45 * second)
        #expect(connection.send(" a\r\n\r\n", now: 41 * second).map(\.status) == [200])

        // A new connection that sends only an empty line closes quietly when a silent one would.
        let fresh = InMemoryConnection(configuration: configuration)
        #expect(fresh.send("\r\n", now: 1 * second).isEmpty)
        #expect(fresh.session.deadlines.request == nil)
        #expect(fresh.session.deadlines.expiry(at: 5 * second) == .idle)
        // Half an empty line is the start of something: its request deadline runs.
        let partial = InMemoryConnection(configuration: configuration)
        #expect(partial.send("\r", now: 1 * second).isEmpty)
        #expect(!partial.session.isIdle)
        #expect(partial.session.deadlines.expiry(at: 6 * second) == .request)
    }

    /// A request that arrived at once but waits behind an answer the client is still reading is the server's to
    /// hold: its deadline stops, and starts afresh once the output drains (a false 408 otherwise).
    @Test func aRequestHeldBehindUndrainedOutputGetsItsDeadlineWhenReadingResumes() throws {
        let connection = InMemoryConnection()
        let bytes = Array("GET /big HTTP/1.1\r\nHost: a\r\n\r\nGET /items/2 HTTP/1.1\r\nHost:".utf8)
        bytes.withUnsafeBytes { connection.session.receive($0, now: 0) }
        #expect(connection.session.output.byteCount >= ConnectionSession.outputHighWater)
        #expect(connection.session.deadlines.request == nil)
        #expect(connection.session.deadlines.expiry(at: 30_000_000_000) == nil)
        // The client read the big answer by 30 s; the server reads again, and the held request's clock starts.
        #expect(ParsedResponse.parseAll(connection.session.output.takeAll()).map(\.status) == [200])
        #expect(connection.session.flush(to: -1, now: 30_000_000_000, peerClosed: false, draining: false) == .open)
        #expect(connection.session.deadlines.expiry(at: 34_000_000_000) == nil)
        #expect(connection.session.deadlines.expiry(at: 35_000_000_000) == .request)
        // The rest arrives in time and is answered.
        #expect(connection.send(" a\r\n\r\n", now: 31_000_000_000).map(\.status) == [200])
    }

    @Test func logsOneLinePerRequestWithTemplateAndNoQueryOrHeaderValues() throws {
        let connection = InMemoryConnection()
        _ = connection.send("GET /items/secret-item?token=hunter2 HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer xyz\r\nX-Request-ID: rid-1\r\n\r\n")
        let lines = connection.log.lines
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.contains(#""route":"/items/{itemID}""#))
        #expect(line.contains(#""requestID":"rid-1""#))
        #expect(line.contains(#""event":"request""#))
        #expect(line.contains(#""status":200"#))
        for secret in ["secret-item", "hunter2", "token", "Bearer", "xyz"] {
            #expect(!line.contains(secret), "log line leaks \(secret)")
        }
    }

    @Test func logsTheIdentityTheApplicationReadsFromTheHeadersAndNothingElseOfThem() throws {
        let identity = AccessLogIdentity(field: "client") { headers in
            headers["Authorization"].flatMap { $0.hasPrefix("Bearer id-") ? String($0.dropFirst(7).prefix(4)) : nil }
        }
        let connection = InMemoryConnection(accessLogIdentity: identity)
        _ = connection.send(
            "GET /items/1 HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer id-7-hunter2\r\n\r\n"
                + "GET /items/2 HTTP/1.1\r\nHost: a\r\nAuthorization: Basic other\r\n\r\n"
                + "GET /nowhere HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer id-9-hunter2\r\n\r\n")
        let lines = connection.log.lines
        #expect(lines.count == 3)
        #expect(lines[0].contains(#""route":"/items/{itemID}","client":"id-7","status":200"#))
        #expect(!lines[1].contains(#""client""#), "no identity named: no member")
        #expect(lines[2].contains(#""client":"id-9","status":404"#), "refused requests show their claim too")
        #expect(!lines.contains { $0.contains("hunter2") || $0.contains("Basic") })

        // Without an identity reader, no line has the member.
        let plain = InMemoryConnection()
        _ = plain.send("GET /items/1 HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer id-7-hunter2\r\n\r\n")
        #expect(!(plain.log.lines.first ?? "").contains("id-7"))
    }

    @Test func addsTheDefaultCacheControlOnlyWhereTheResponseSetsNone() throws {
        var configuration = TestServer.configuration()
        configuration.defaultCacheControl = "no-store"
        var router = Router()
        router.add(.get, "/plain") { _, _ in HTTPResponse.text(.ok, "x") }
        router.add(.get, "/own") { _, _ in
            var headers = HTTPFields()
            headers.set("cache-control", "public, max-age=60")
            return HTTPResponse.text(.ok, "x", headers: headers)
        }
        let connection = InMemoryConnection(configuration: configuration, router: router)
        let responses = connection.send(
            "GET /plain HTTP/1.1\r\nHost: a\r\n\r\nGET /own HTTP/1.1\r\nHost: a\r\n\r\nGET /missing HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(responses.count == 3)
        #expect(responses[0].header("Cache-Control") == "no-store")
        #expect(responses[1].header("Cache-Control") == "public, max-age=60")
        #expect(responses[1].headers.filter { $0.0.lowercased() == "cache-control" }.count == 1)
        #expect(responses[2].status == 404 && responses[2].header("Cache-Control") == "no-store", "errors too")
        let plain = InMemoryConnection()
        #expect(plain.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n").first?.header("Cache-Control") == nil, "off by default")
    }

    @Test func recordsRequestMetricsByTemplate() {
        let connection = InMemoryConnection()
        _ = connection.send("GET /items/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /items/2 HTTP/1.1\r\nHost: a\r\n\r\n")
        let text = connection.metrics.render()
        #expect(text.contains(#"http_requests_total{method="GET",route="/items/{itemID}",status="200"} 2"#))
        #expect(text.contains(#"http_request_duration_seconds_count{route="/items/{itemID}"} 2"#))
        #expect(text.contains("# TYPE http_requests_in_flight gauge"))
    }

    @Test func dropsFramingHeadersSetByHandlers() throws {
        var router = Router()
        router.add(.get, "/") { _, _ in
            HTTPResponse(status: .ok, headers: ["Content-Length": "999", "Connection": "close", "X-Bad": "a\r\nInjected: 1", "X-Good": "yes"], body: Array("ok".utf8))
        }
        let connection = InMemoryConnection(router: router)
        let response = try #require(connection.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n").first)
        #expect(response.header("Content-Length") == "2")
        #expect(response.header("Connection") == nil)
        #expect(response.header("Injected") == nil)
        #expect(response.header("X-Bad") == nil)
        #expect(response.header("X-Good") == "yes")
    }

    @Test func runsMiddlewareAroundHandlersInOrder() throws {
        struct Tag: HTTPMiddleware {
            let name: String
            func handle(
                _ request: HTTPRequest, context: RequestContext, next: (HTTPRequest, RequestContext) throws -> HTTPResponse
            ) throws -> HTTPResponse {
                var response = try next(request, context)
                response.headers.append(name: "X-Trace", value: name)
                return response
            }
        }
        var router = SampleRoutes.router()
        router.use(Tag(name: "outer"))
        router.use(Tag(name: "inner"))
        let connection = InMemoryConnection(router: router)
        let response = try #require(connection.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n").first)
        #expect(response.headers.filter { $0.name == "X-Trace" }.map(\.value) == ["inner", "outer"])
    }

    @Test func passesContextWithParametersAndReceiveTime() throws {
        var router = Router()
        router.add(.get, "/users/{userID}/notes/{noteID}") { _, context in
            HTTPResponse.text(.ok, "\(context.parameters["userID"]!)|\(context.parameters["noteID"]!)|\(context.receivedAt)|\(context.routeTemplate)")
        }
        let connection = InMemoryConnection(router: router)
        let response = try #require(connection.send("GET /users/a%20b/notes/7 HTTP/1.1\r\nHost: a\r\n\r\n", now: 42).first)
        #expect(response.bodyText == "a b|7|42|/users/{userID}/notes/{noteID}")
    }
}
