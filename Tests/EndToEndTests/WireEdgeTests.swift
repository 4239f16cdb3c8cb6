import Foundation
import Testing
@testable import TrustInsightsApp

/// Answers at the edges of the wire contract, from an outside review against API.md and RFCs 8259, 9110 and
/// 9562: each names what was sent and what the document promises.
@Suite(.serialized, .sharedLiveService) struct WireEdgeTests {
    let service: LiveService
    let clientKey: String

    init() throws {
        service = try SharedLiveService.service()
        clientKey = try service.key()
    }

    private func evaluate(_ body: [UInt8], headers: [(String, String)] = [("Content-Type", "application/json")]) throws -> SocketClient.Response {
        try service.client().request("POST", "/v1/evaluations", headers: [("Authorization", "Bearer \(clientKey)")] + headers, body: body)
    }

    private func problemType(_ response: SocketClient.Response) throws -> String {
        try jsonObject(response)["type"] as? String ?? ""
    }

    @Test(arguments: ["[", "[1,", "tru", "123abc", "\"abc", "[1 2]"])
    func aBodyThatIsNotJSONIsMalformedJSONNotTheWrongShape(body: String) throws {
        let response = try evaluate(Array(body.utf8))
        #expect(response.status == 400)
        #expect(try problemType(response).hasSuffix("malformed-json"), "\(body)")
    }

    /// No content, so no content type to be wrong (RFC 9110 §15.5.16): malformed, with or without `Content-Type`.
    @Test func anEmptyBodyIsMalformedJSONWithOrWithoutAContentType() throws {
        for headers in [[("Content-Type", "application/json")], []] {
            let response = try evaluate([], headers: headers)
            #expect(response.status == 400)
            #expect(try problemType(response).hasSuffix("/malformed-json"))
        }
    }

    /// A `GET` route reads no body, but one over 64 KiB (or coded) is still refused; the key is judged first there
    /// as on the routes that take a body. Before, a `GET` with a 100 KB body and no key was `413` (HTTP probe,
    /// 6 December).
    @Test func aGetWithABodyOverTheLimitJudgesTheKeyFirst() throws {
        let analystKey = try service.key(role: .analyst)
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 100_000)
        for path in ["/v1/compliance", "/v1/models", "/v1/metrics/labels", "/v1/authorization/acct-get-body"] {
            let anonymous = try service.client().request("GET", path, body: big)
            #expect(anonymous.status == 401, "\(path)")
            #expect(anonymous.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(path)")
        }
        let otherRole = try service.client().request("GET", "/v1/compliance", headers: [("Authorization", "Bearer \(analystKey)")], body: big)
        #expect(otherRole.status == 403)
        let rightKey = try service.client().request("GET", "/v1/compliance", headers: [("Authorization", "Bearer \(clientKey)")], body: big)
        #expect(rightKey.status == 413)
        let coded = try service.client().request(
            "GET", "/v1/metrics/labels", headers: [("Content-Encoding", "gzip"), ("Authorization", "Bearer \(clientKey)")], body: Array("x".utf8))
        #expect(coded.status == 403)
    }

    /// A caller without a client key whose body has not come with its header section is answered at once (401 or
    /// 403, then the connection closes), not waited for until the request deadline gives it a 408; a client with
    /// a key whose body follows later is served as ever.
    @Test func aBodyStillToComeWithoutAClientKeyIsRefusedAtOnce() throws {
        let partnerKey = try service.key(role: .partner)
        let evaluationID = try service.evaluate(key: clientKey).evaluationID
        for (method, path) in [("POST", "/v1/evaluations"), ("POST", "/v1/evaluations/\(evaluationID)/consumption"),
                               ("PUT", "/v1/authorization/acct-await")] {
            for (authorization, status) in [(nil, 401), ("Bearer nope", 401), ("Bearer \(partnerKey)", 403)] as [(String?, Int)] {
                let client = try service.client()
                var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 484\r\n"
                if let authorization { head += "Authorization: \(authorization)\r\n" }
                client.send(Array((head + "\r\n{").utf8))
                let response = try client.readResponse()
                #expect(response.status == status, "\(method) \(path) \(authorization ?? "no key")")
                #expect(response.header("Content-Type") == "application/problem+json")
                #expect(response.header("Connection") == "close")
            }
        }
        let body = Array(#"{"status":"authorized"}"#.utf8)
        let client = try service.client()
        client.send(Array("PUT /v1/authorization/acct-await HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(clientKey)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n{".utf8))
        usleep(50_000)
        client.send(Array(body.dropFirst()))
        #expect(try client.readResponse().status == 200)
    }

    /// The GET routes read no body. A keyless one declaring a body it does not send is told 401 at once, not 408 at
    /// the deadline, and a body over 8 KiB on any GET is 413 at once without reserving from the budget of 8-64 KiB
    /// bodies: 520 keyless GETs declaring 60 KB held all of it, and partners' label uploads got 503 (security
    /// probe, 6 December).
    @Test func aGETWithABodyHoldsNoBudgetAndWaitsForNoKey() throws {
        for path in ["/v1/compliance", "/v1/models", "/v1/metrics/labels", "/v1/authorization/acct-get-body"] {
            let client = try service.client()
            client.send(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 60000\r\n\r\nabc".utf8))
            let started = Date()
            let response = try client.readResponse()
            #expect(response.status == 401, "\(path)")
            #expect(Date().timeIntervalSince(started) < 5, "\(path) was answered at once")
        }
        var clients: [SocketClient] = []
        for path in ["/healthz", "/v1/signing-keys", "/v1/compliance"] {
            for length in [8193, 60000] {
                let client = try service.client()
                var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(length)\r\n"
                if path == "/v1/compliance" { head += "Authorization: Bearer \(clientKey)\r\n" }
                client.send(Array((head + "\r\n").utf8))
                let response = try client.readResponse()
                #expect(response.status == 413, "\(path) \(length)")
                clients.append(client)
            }
        }
        // With a key, the route's refusals of its query are said at once too, not after a 408.
        // The same answer as with the body here: a sandbox key asking for production included.
        let analystKey = try service.key(role: .analyst)
        for (path, key) in [("/v1/compliance?x=1", clientKey), ("/v1/authorization/acct-get-body?x=1", clientKey),
                            ("/v1/metrics/labels?groupBy=nope", analystKey), ("/v1/metrics/labels?environment=production", analystKey),
                            ("/v1/metrics/labels?environment=all&foo=1", analystKey)] {
            let client = try service.client()
            client.send(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\nContent-Length: 100\r\n\r\n".utf8))
            let started = Date()
            let early = try client.readResponse()
            #expect(early.status == 400, "\(path)")
            #expect(Date().timeIntervalSince(started) < 5, "\(path) was answered at once")
            let late = try service.client().request("GET", path, headers: [("Authorization", "Bearer \(key)")])
            #expect(early.text == late.text, "\(path): \(early.text) against \(late.text)")
        }
        // A small body is read and ignored, as before.
        let small = try service.client().request(
            "GET", "/v1/compliance", headers: [("Authorization", "Bearer \(clientKey)")], body: Array("x".utf8))
        #expect(small.status == 200)
    }

    /// API.md "Retries": the evaluation route takes no Idempotency-Key; a retry carrying one is a second evaluation,
    /// not a replay of the first, whatever the header holds.
    @Test func anIdempotencyKeyOnAnEvaluationIsIgnored() throws {
        let body = Requests.payment(requestID: "retried", account: "acct-idempotency")
        var evaluationIDs: [String] = []
        for key in ["retry-1", "retry-1", "not a token"] {
            let response = try evaluate(body, headers: [("Content-Type", "application/json"), ("Idempotency-Key", key)])
            #expect(response.status == 200, "\(response.text)")
            #expect(response.header("Idempotent-Replayed") == nil)
            evaluationIDs.append(try jsonObject(response)["evaluationID"] as? String ?? "")
        }
        #expect(Set(evaluationIDs).count == 3, "\(evaluationIDs)")
    }

    @Test func jsonOfTheWrongShapeIsContextInvalidAtTheRoot() throws {
        let response = try evaluate(Array("[1, 2]".utf8))
        #expect(response.status == 400)
        #expect(try jsonObject(response)["evaluationError"] as? String == "contextInvalid")
        #expect(try errorPointers(response) == [""])
    }

    @Test func validJSONNestedBeyondTheLimitNamesTheMember() throws {
        let response = try evaluate(Requests.payment(features: #""activeCall": [[[[[[[[[[]]]]]]]]]]"#))
        #expect(response.status == 400)
        #expect(try jsonObject(response)["evaluationError"] as? String == "contextInvalid")
        #expect(try errorPointers(response) == ["/features/activeCall"], "\(response.text)")
        #expect(response.text.contains("nests deeper"))
    }

    /// Inside `features` too, a repeated name is named as a repeat when its second value nests too deep or holds half
    /// a surrogate pair, and a value that stops the reading is named at its own feature, not at `/features`.
    @Test func aFeatureRepeatedOrStoppingTheReadIsNamedAtItsOwnPointer() throws {
        let deep = "[[[[[[[1]]]]]]]"
        let cases = [
            (#""activeCall": 1, "activeCall": \#(deep)"#, "/features/activeCall", "appears more than once"),
            (#""activeCall": 1, "activeCall": "\ud800""#, "/features/activeCall", "appears more than once"),
            (#""activeCall": 1, "zz": \#(deep)"#, "/features/zz", "nests deeper"),
            (#""activeCall": 1, "zz": "\ud800""#, "/features/zz", "surrogate"),
            (#""activeCall": 1, "a~b/c": \#(deep)"#, "/features/a~0b~1c", "nests deeper"),
        ]
        for (features, pointer, detail) in cases {
            let response = try evaluate(Requests.payment(features: features))
            #expect(response.status == 400)
            #expect(try jsonObject(response)["evaluationError"] as? String == "contextInvalid", "\(response.text)")
            #expect(try errorPointers(response) == [pointer], "\(features): \(response.text)")
            #expect(response.text.contains(detail), "\(features): \(response.text)")
        }
        // A name that is not repeated stays unrepeated: the violation names the object that holds it.
        let unrepeatable = try evaluate(Requests.payment(features: #""jane@example.com": \#(deep)"#))
        #expect(try errorPointers(unrepeatable) == ["/features"], "\(unrepeatable.text)")
        #expect(!unrepeatable.text.contains("jane"))
    }

    /// Before, the body was read no further than the depth limit or half a surrogate pair, so text that breaks
    /// JSON's grammar beyond that point was answered as JSON of the wrong shape.
    @Test func textThatIsNotJSONBeyondTheDepthLimitIsMalformedJSON() throws {
        let deep = String(repeating: "[", count: 20)
        for body in [
            #"{"zzz": \#(deep)"#, #"{"features": \#(deep)1\#(String(repeating: "]", count: 20))xx"#,
            #"{"requestID": "\ud800", "#, "\(deep)1", #"{"\udead": 1"#,
        ] {
            let response = try evaluate(Array(body.utf8))
            #expect(response.status == 400, "\(body)")
            #expect(try problemType(response).hasSuffix("/malformed-json"), "\(body): \(response.text)")
        }
        for body in [#"{"zzz": \#(deep)\#(String(repeating: "]", count: 20))}"#, #"{"requestID": "\ud800"}"#] {
            let response = try evaluate(Array(body.utf8))
            #expect(try jsonObject(response)["evaluationError"] as? String == "contextInvalid", "\(body): \(response.text)")
        }
    }

    /// Lengths count characters (code points), as the contract's `maxLength` does: 128 two-byte characters are a
    /// valid requestID, 129 are not; the same for a 256-character subjectRef in a body and in a path.
    @Test func stringLimitsCountCharactersNotBytes() throws {
        let accepted = try evaluate(Requests.payment(requestID: String(repeating: "é", count: 128), account: String(repeating: "é", count: 256)))
        #expect(accepted.status == 200, "\(accepted.text)")
        let refused = try evaluate(Requests.payment(requestID: String(repeating: "é", count: 129)))
        #expect(refused.status == 400)
        #expect(try errorPointers(refused) == ["/requestID"])
        #expect(refused.text.contains("1 to 128 characters long"))
        let ref = String(repeating: "%C3%A9", count: 256)
        let read = try service.client().request("GET", "/v1/authorization/\(ref)", headers: [("Authorization", "Bearer \(clientKey)")])
        #expect(read.status == 200, "\(read.text)")
        let tooLong = try service.client().request("GET", "/v1/authorization/\(ref)%C3%A9", headers: [("Authorization", "Bearer \(clientKey)")])
        #expect(tooLong.status == 400)
    }

    /// A member already found wrong keeps its one violation when it also nests too deep (API.md).
    @Test func anUnknownOrWrongMemberNestedTooDeepGetsOneViolation() throws {
        let deep = "[[[[[[[[[[]]]]]]]]]]"
        let payment = String(decoding: Requests.payment(), as: UTF8.self)
        let cases = [
            (payment.replacingOccurrences(of: #""requestID": "req-1""#, with: #""junk": \#(deep)"#), "/junk", "is not a field"),
            (payment.replacingOccurrences(of: #""requestID": "req-1""#, with: #""requestID": \#(deep)"#), "/requestID", "expected a string"),
            (payment.replacingOccurrences(of: #""requestID": "req-1""#, with: #""requestID": "a", "requestID": \#(deep)"#), "/requestID", "more than once"),
        ]
        for (body, pointer, detail) in cases {
            #expect(body != payment)
            let response = try evaluate(Array(body.utf8))
            #expect(response.status == 400)
            #expect(try errorPointers(response) == [pointer], "\(response.text)")
            #expect(response.text.contains(detail))
            #expect(!response.text.contains("nests deeper"))
        }
    }

    /// RFC 8259 §8.2: `\ud800` alone is JSON, but not text; the answer names the field holding it, at any depth,
    /// rather than calling the body malformed. A name that is not repeated stays unrepeated.
    @Test func anUnpairedSurrogateEscapeIsNamedByItsField() throws {
        func insight(_ members: String) -> [UInt8] { Requests.payment(insights: "{\(members)}") }
        let cases = [
            (Requests.payment(requestID: #"a\ud800"#), ["/requestID"]),
            (Requests.payment(requestID: #"\udc00\ud800"#), ["/requestID"]),
            (Requests.payment(account: #"x\ud83d\u0041"#), ["/subject/accountRef"]),
            (Requests.payment(payee: #"\ud800"#), ["/subject/counterpartyRef"]),
            (insight(#""insightType": "\udfff", "schema": "version1""#), ["/requestedInsights/0/insightType"]),
            (insight(#""insightType": "isLikelyBeingCoached", "schema": "v\ud800""#), ["/requestedInsights/0/schema"]),
            (insight(#""insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": "\ud800""#),
             ["/requestedInsights/0/modelVersion"]),
            (insight(#""insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": {"specific": "\ud800"}"#),
             ["/requestedInsights/0/modelVersion/specific"]),
        ]
        for (body, pointers) in cases {
            let response = try evaluate(body)
            #expect(response.status == 400)
            #expect(try jsonObject(response)["evaluationError"] as? String == "contextInvalid", "\(response.text)")
            #expect(try errorPointers(response) == pointers, "\(response.text)")
            #expect(response.text.contains("surrogate"))
        }
        // A field found wrong before the reading stopped keeps its own violation beside it.
        let earlier = try evaluate(Array(String(decoding: Requests.payment(), as: UTF8.self)
            .replacingOccurrences(of: #""accountRef": "acct-1""#, with: #""accountRef": 5, "deviceRef": "\ud800""#).utf8))
        #expect(try errorPointers(earlier) == ["/subject/accountRef", "/subject/deviceRef"], "\(earlier.text)")
        let payment = String(decoding: Requests.payment(), as: UTF8.self)
        for value in [#""\ud800""#, "[[[[[[[[[[]]]]]]]]]]"] {
            let body = payment.replacingOccurrences(of: #""requestID": "req-1""#, with: #""jane@example.com": \#(value)"#)
            let response = try evaluate(Array(body.utf8))
            #expect(response.status == 400)
            #expect(try errorPointers(response) == [""], "\(response.text)")
            #expect(!response.text.contains("jane"))
        }
    }

    /// JSON whose own value nests too deep or holds half a surrogate pair, or whose member name does, is JSON of
    /// the wrong shape, not "not JSON" (API.md), on the evaluation and the authorization routes alike.
    @Test func valuesAndNamesBeyondTheReaderAreTheWrongShapeNotMalformed() throws {
        for body in ["[[[[[[[[[1]]]]]]]]]", #""\ud800""#, #"{"requestID": 5, "\udead": 1}"#] {
            let response = try evaluate(Array(body.utf8))
            #expect(response.status == 400)
            #expect(try jsonObject(response)["evaluationError"] as? String == "contextInvalid", "\(body): \(response.text)")
            #expect(try errorPointers(response).last == "", "\(body): \(response.text)")
        }
        let named = try evaluate(Array(#"{"requestID": 5, "\udead": 1}"#.utf8))
        #expect(try errorPointers(named) == ["/requestID", ""], "\(named.text)")
        let put = try service.client().request(
            "PUT", "/v1/authorization/acct-deep", headers: [("Authorization", "Bearer \(clientKey)"), ("Content-Type", "application/json")],
            body: Array("[[[[[1]]]]]".utf8))
        #expect(put.status == 400)
        #expect(try problemType(put).hasSuffix("/invalid-request"), "\(put.text)")
        #expect(try errorPointers(put) == [""])
    }

    /// `{"x": 1, "specific": ...}` names `x` only: `specific` is there once. Without `specific`, it is missing too.
    @Test func aSpecificVersionBesideAnUnknownMemberIsNotADuplicate() throws {
        func pointers(_ modelVersion: String) throws -> [String] {
            try errorPointers(evaluate(Requests.payment(insights: #"{"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": \#(modelVersion)}"#)))
        }
        #expect(try pointers(#"{"x": 1, "specific": "2026.09.1"}"#) == ["/requestedInsights/0/modelVersion/x"])
        #expect(try pointers(#"{"x": 1}"#) == ["/requestedInsights/0/modelVersion/x", "/requestedInsights/0/modelVersion/specific"])
        #expect(try pointers(#"{"specific": "2026.09.1", "specific": "2026.11.1"}"#) == ["/requestedInsights/0/modelVersion/specific"])
    }

    /// The same content in another member order gets the same violations: an empty `requestedInsights` is named
    /// whatever else is wrong before it.
    @Test func anEmptyInsightListIsNamedWhateverComesBeforeIt() throws {
        let payment = String(decoding: Requests.payment(insights: ""), as: UTF8.self)
        let first = payment.replacingOccurrences(of: #"{"requestID": "req-1","#, with: #"{"zz": 1, "requestID": "req-1","#)
        let last = payment.replacingOccurrences(of: #"{"requestID": "req-1","#, with: #"{"requestID": "req-1", "zz": 1,"#)
        #expect(first != payment && last != payment)
        for body in [first, last] {
            #expect(try Set(errorPointers(evaluate(Array(body.utf8)))) == ["/zz", "/requestedInsights"], "\(body)")
        }
    }

    /// RFC 9110 §10.1.1: when the header section decides the answer, it is sent in place of `100 Continue`, so a
    /// client without access does not send its body at all.
    @Test func aRefusedCredentialIsAnsweredInPlaceOfContinue() throws {
        let analyst = try service.key(role: .analyst)
        for (method, path) in [("POST", "/v1/evaluations"), ("PUT", "/v1/authorization/acct-expect"), ("POST", "/v1/evaluations/\(UUID().uuidString.lowercased())/consumption")] {
            for (credential, expected) in [(nil, 401), (analyst, 403), (clientKey, 100)] {
                let client = try service.client()
                var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2\r\n"
                if let credential { head += "Authorization: Bearer \(credential)\r\n" }
                client.send(Array((head + "\r\n").utf8))
                #expect(try client.readResponse(skippingInterim: false).status == expected, "\(method) \(path)")
            }
        }
    }

    /// The service sends no entity tags: a change guarded by If-Match is refused with 412 and not made (RFC 9110
    /// §13.1.1); a missing key is still 401 first.
    @Test func aChangeGuardedByAnEntityTagIsNotMade() throws {
        let client = try service.client()
        let headers = [("Authorization", "Bearer \(clientKey)"), ("Content-Type", "application/json")]
        let guarded = try client.request("PUT", "/v1/authorization/acct-guarded", headers: headers + [("If-Match", #""v1""#)], body: Array(#"{"status": "denied"}"#.utf8))
        #expect(guarded.status == 412)
        #expect(try problemType(guarded).hasSuffix("/precondition-failed"))
        let state = try service.client().request("GET", "/v1/authorization/acct-guarded", headers: [("Authorization", "Bearer \(clientKey)")])
        #expect(try jsonObject(state)["pendingStatus"] == nil || jsonObject(state)["pendingStatus"] is NSNull, "\(state.text)")
        let anonymous = try service.client().request("PUT", "/v1/authorization/acct-guarded", headers: [("Content-Type", "application/json"), ("If-Match", #""v1""#)], body: Array(#"{"status": "denied"}"#.utf8))
        #expect(anonymous.status == 401)
        let unconditional = try service.client().request("PUT", "/v1/authorization/acct-guarded", headers: headers + [("If-Match", "*")], body: Array(#"{"status": "authorized"}"#.utf8))
        #expect(unconditional.status == 200)
        let labels = try service.client().request("POST", "/v1/labels", headers: [("Content-Type", "application/json"), ("If-Match", "*")], body: [])
        #expect(labels.status == 401)
        let models = try service.client().request("GET", "/v1/models", headers: [("Authorization", "Bearer \(clientKey)"), ("If-None-Match", "*")])
        #expect(models.status == 304)
        #expect(models.body.isEmpty)
    }

    typealias ContentFreeRefusal = (method: String, path: String, key: String, headers: [(String, String)], body: [UInt8], type: String, pointers: [String])

    /// Requests every route refuses from the header section alone: a query, a ref that is no ref, a misspelt
    /// override header or one sent with a production key, a malformed `Idempotency-Key`.
    func contentFreeRefusals() throws -> [ContentFreeRefusal] {
        let partnerKey = try service.key(role: .partner)
        let productionKey = try service.key(tenant: "acme", role: .client, environment: .production)
        let evaluation = Requests.payment()
        let consumption = Array(#"{"status": "notUsedError", "insightIDsUsed": []}"#.utf8)
        return [
            ("POST", "/v1/evaluations?dryRun=1", clientKey, [], evaluation, "invalid-parameter", ["dryRun"]),
            ("POST", "/v1/evaluations", clientKey, [("Trust-Insights-Override-Outcomes", "high")], evaluation, "invalid-override",
             ["Trust-Insights-Override-Outcomes"]),
            ("POST", "/v1/evaluations", productionKey, [("Trust-Insights-Override-Outcome", "high")], evaluation, "override-not-allowed",
             ["Trust-Insights-Override-Outcome"]),
            ("POST", "/v1/evaluations/\(UUID().uuidString.lowercased())/consumption?x=1", clientKey, [], consumption, "invalid-parameter", ["x"]),
            ("PUT", "/v1/authorization/ww%FE", clientKey, [], Array(#"{"status": "authorized"}"#.utf8), "invalid-parameter", ["subjectRef"]),
            ("PUT", "/v1/authorization/acct-precondition?x=1", clientKey, [], Array(#"{"status": "authorized"}"#.utf8), "invalid-parameter", ["x"]),
            ("POST", "/v1/labels", partnerKey, [("Idempotency-Key", "a b")], Array(#"{"items": []}"#.utf8), "invalid-header", ["Idempotency-Key"]),
            ("POST", "/v1/labels?dryRun=1", partnerKey, [], Array(#"{"items": []}"#.utf8), "invalid-parameter", ["dryRun"]),
        ]
    }

    /// A request refused before its content is read is told why, not that its precondition failed: RFC 9110 §13.2.1
    /// has preconditions ignored when the answer without them would be an error decided before the content. The
    /// same requests with no precondition get the same answers, and the route stays conditional otherwise.
    @Test func refusalsThatNeedNoContentComeBeforeAFailedPrecondition() throws {
        let json = ("Content-Type", "application/json")
        let evaluation = Requests.payment()
        let cases = try contentFreeRefusals()
        for item in cases {
            let headers = [("Authorization", "Bearer \(item.key)"), json] + item.headers
            let plain = try service.client().request(item.method, item.path, headers: headers, body: item.body)
            #expect(plain.status == 400, "\(item.path): \(plain.text)")
            #expect(try problemType(plain).hasSuffix("/" + item.type), "\(item.path): \(plain.text)")
            for condition in [("If-Match", #""v1""#), ("If-Match", "*"), ("If-None-Match", "*")] {
                let conditional = try service.client().request(item.method, item.path, headers: headers + [condition], body: item.body)
                #expect(conditional.status == 400, "\(item.method) \(item.path) \(condition): \(conditional.text)")
                #expect(try problemType(conditional) == (try problemType(plain)))
                #expect(try errorPointers(conditional) == item.pointers, "\(item.path): \(conditional.text)")
            }
        }
        // With nothing to refuse, the precondition decides; without a key, 401 still comes first.
        let guarded = try service.client().request(
            "POST", "/v1/evaluations", headers: [("Authorization", "Bearer \(clientKey)"), json, ("If-Match", "*")], body: evaluation)
        #expect(guarded.status == 412)
        let anonymous = try service.client().request("POST", "/v1/evaluations?dryRun=1", headers: [json, ("If-Match", "*")], body: evaluation)
        #expect(anonymous.status == 401)
    }

    /// A ref and a body both wrong are named together only when the body is read; a failing precondition refuses
    /// from the header section, which names the ref alone, as API.md says (the probe of 5 December found the doc
    /// promising the same answer either way).
    @Test func aBodyAddsItsProblemsOnlyWhenItIsRead() throws {
        let headers = [("Authorization", "Bearer \(clientKey)"), ("Content-Type", "application/json")]
        let body = Array(#"{"status": "zz"}"#.utf8)
        let read = try service.client().request("PUT", "/v1/authorization/ww%FE", headers: headers, body: body)
        #expect(try problemType(read).hasSuffix("/invalid-request"), "\(read.text)")
        #expect(try errorPointers(read) == ["subjectRef", "/status"])
        for condition in [("If-Match", #""v1""#), ("If-None-Match", "*")] {
            let refused = try service.client().request("PUT", "/v1/authorization/ww%FE", headers: headers + [condition], body: body)
            #expect(try problemType(refused).hasSuffix("/invalid-parameter"), "\(condition): \(refused.text)")
            #expect(try errorPointers(refused) == ["subjectRef"])
        }
        // A precondition that holds lets the body be read.
        let held = try service.client().request("PUT", "/v1/authorization/ww%FE", headers: headers + [("If-Match", "*")], body: body)
        #expect(try errorPointers(held) == ["subjectRef", "/status"])
    }

    /// RFC 9110 §10.1.1: what a route refuses from the header section alone is sent in place of `100 Continue`, and
    /// at once when the body has not all arrived, rather than inviting a body it would not read or waiting for it
    /// until the request deadline (a 408). A missing key is still told 401 first.
    @Test func aRefusalThatNeedsNoContentIsAnsweredWithoutWaitingForTheBody() throws {
        for item in try contentFreeRefusals() {
            for expectsContinue in [true, false] {
                let client = try service.client()
                var head = "\(item.method) \(item.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                head += "Authorization: Bearer \(item.key)\r\nContent-Length: \(item.body.count + 100)\r\n"
                if expectsContinue { head += "Expect: 100-continue\r\n" }
                for (name, value) in item.headers { head += "\(name): \(value)\r\n" }
                let started = Date()
                client.send(Array((head + "\r\n").utf8))
                let answer = try client.readResponse(skippingInterim: false)
                #expect(answer.status == 400, "\(item.path) expect=\(expectsContinue): \(answer.text)")
                #expect(try problemType(answer).hasSuffix("/" + item.type), "\(item.path): \(answer.text)")
                #expect(try errorPointers(answer) == item.pointers, "\(item.path): \(answer.text)")
                #expect(Date().timeIntervalSince(started) < 5, "\(item.path): answered only after \(Date().timeIntervalSince(started)) s")
            }
        }
        // Without a key, the key's refusal comes first, as for any request.
        let anonymous = try service.client()
        anonymous.send(Array("POST /v1/evaluations?dryRun=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 50\r\n\r\n".utf8))
        #expect(try anonymous.readResponse(skippingInterim: false).status == 401)
        // With nothing to refuse, the body is invited as before.
        let invited = try service.client()
        invited.send(Array("POST /v1/evaluations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer \(clientKey)\r\nExpect: 100-continue\r\nContent-Length: 50\r\n\r\n".utf8))
        #expect(try invited.readResponse(skippingInterim: false).status == 100)
    }

    /// A route that takes no query parameters names every one it was sent, with the ref when that is wrong too,
    /// and the detail says when `errors` is cut short.
    @Test func everyUnexpectedQueryParameterIsNamed() throws {
        let headers = [("Authorization", "Bearer \(clientKey)"), ("Content-Type", "application/json")]
        let two = try service.client().request("POST", "/v1/evaluations?a=1&dryRun=1", headers: headers, body: Array("{}".utf8))
        #expect(two.status == 400)
        #expect(try errorPointers(two) == ["a", "dryRun"])
        #expect(try (jsonObject(two)["detail"] as? String)?.hasSuffix("(and 1 more)") == true, "\(two.text)")
        let withRef = try service.client().request("PUT", "/v1/authorization/%FF?x=1", headers: headers, body: Array("{}".utf8))
        #expect(try errorPointers(withRef) == ["x", "subjectRef"], "\(withRef.text)")
        let getWithRef = try service.client().request("GET", "/v1/authorization/%FF?x=1", headers: [("Authorization", "Bearer \(clientKey)")])
        #expect(try errorPointers(getWithRef) == ["x", "subjectRef"], "\(getWithRef.text)")
        let many = (0..<40).map { "p\($0)=1" }.joined(separator: "&")
        let cut = try service.client().request("POST", "/v1/evaluations?\(many)", headers: headers, body: Array("{}".utf8))
        #expect(try errorPointers(cut).count == 32)
        #expect(try (jsonObject(cut)["detail"] as? String)?.hasSuffix("(and 39 more; errors lists the first 32)") == true, "\(cut.text)")
        let analystKey = try service.key(role: .analyst)
        let metrics = try service.client().request("GET", "/v1/metrics/labels?\(many)", headers: [("Authorization", "Bearer \(analystKey)")])
        #expect(try (jsonObject(metrics)["detail"] as? String)?.hasSuffix("(and 39 more; errors lists the first 32)") == true, "\(metrics.text)")
        // A name sent twice is named once; two distinct names that are not repeated are two errors (both point at
        // ""), as two such members of a body are.
        let twice = try service.client().request("POST", "/v1/evaluations?foo=1&foo=2&jane%40x=1&bob%40y=2&jane%40x=3", headers: headers, body: Array("{}".utf8))
        #expect(try errorPointers(twice) == ["foo", "", ""], "\(twice.text)")
        let metricsTwice = try service.client().request(
            "GET", "/v1/metrics/labels?foo=1&foo=2&jane%40x=1&bob%40y=2&jane%40x=3", headers: [("Authorization", "Bearer \(analystKey)")])
        #expect(try errorPointers(metricsTwice) == ["foo", "", ""], "\(metricsTwice.text)")
    }

    /// A wrong ref in the path and a wrong body are named in one answer.
    @Test func aWrongPathRefAndAWrongBodyAreNamedTogether() throws {
        let headers = [("Authorization", "Bearer \(clientKey)"), ("Content-Type", "application/json")]
        let long = String(repeating: "a", count: 300)
        let both = try service.client().request("PUT", "/v1/authorization/\(long)", headers: headers, body: Array(#"{"status": "x"}"#.utf8))
        #expect(both.status == 400)
        #expect(try errorPointers(both) == ["subjectRef", "/status"], "\(both.text)")
        let pathOnly = try service.client().request("PUT", "/v1/authorization/\(long)", headers: headers, body: Array(#"{"status": "denied"}"#.utf8))
        #expect(try errorPointers(pathOnly) == ["subjectRef"])
        #expect(try problemType(pathOnly).hasSuffix("/invalid-parameter"))
    }

    @Test func aMemberOfTheWrongTypeIsNotAlsoReportedMissing() throws {
        let body = Array("""
            {"operationCategory": "payment", "requestedInsights": null, "subject": {"accountRef": "a"}, "features": []}
            """.utf8)
        let response = try evaluate(body)
        #expect(response.status == 400)
        #expect(try errorPointers(response) == ["/requestedInsights", "/features"])
    }

    /// Before, a problem the body's reading found (an empty requestID, an unknown member) hid what the catalogue
    /// would say of the subject refs and features, so a client fixed one batch only to be refused with the next.
    @Test func theCatalogueProblemsAreNamedBesideTheBodysOwn() throws {
        let badBand = #""activeCall": 1, "screenSharingActive": 0, "sessionDurationSeconds": 95, "timeOfDayBand": 9, "amountBandRelativeToUsual": 3"#
        let cases: [([UInt8], [String])] = [
            (Requests.payment(requestID: "", features: badBand), ["/requestID", "/features/timeOfDayBand"]),
            // An empty ref keeps its one violation: the catalogue would call it missing.
            (Requests.payment(account: "", features: badBand), ["/subject/accountRef", "/features/timeOfDayBand"]),
            (Requests.payment(features: badBand, insights: ""), ["/requestedInsights", "/features/timeOfDayBand"]),
            (Array(String(decoding: Requests.payment(payee: "p"), as: UTF8.self)
                .replacingOccurrences(of: #", "counterpartyRef": "p""#, with: "")
                .replacingOccurrences(of: #""requestID": "req-1""#, with: #""zz": 1"#).utf8),
             ["/zz", "/subject/counterpartyRef"]),
        ]
        for (body, pointers) in cases {
            let response = try evaluate(body)
            #expect(response.status == 400)
            #expect(try errorPointers(response) == pointers, "\(response.text)")
        }
        // A subject that is not an object is named once; the features are still checked.
        let notAnObject = String(decoding: Requests.payment(features: badBand), as: UTF8.self)
            .replacingOccurrences(of: #""subject": {"accountRef": "acct-1", "deviceRef": "dev-1", "counterpartyRef": "payee-1"}"#, with: #""subject": 5"#)
        #expect(try errorPointers(try evaluate(Array(notAnObject.utf8))) == ["/subject", "/features/timeOfDayBand"])
        // Features sent twice: what the first copy held says nothing, so the catalogue is not asked about it.
        let twice = String(decoding: Requests.payment(), as: UTF8.self)
            .replacingOccurrences(of: #""features": {"#, with: #""features": {"timeOfDayBand": 9}, "features": {"#)
        #expect(try errorPointers(try evaluate(Array(twice.utf8))) == ["/features"])
    }

    @Test func anUnknownNameThatIsNotIdentifierLikeIsNotRepeated() throws {
        let long = String(repeating: "x", count: 65)
        for name in [long, "jane doe\\u00e9", "jane@example.com", "Jane Doe"] {
            var body = Requests.payment()
            body.removeLast()
            body += Array(#", "\#(name)": true}"#.utf8)
            let response = try evaluate(body)
            #expect(response.status == 400)
            #expect(try errorPointers(response) == [""])
            #expect(!response.text.contains(String(name.prefix(20))))
        }
        var body = Requests.payment()
        body.removeLast()
        body += Array(#", "extra": true}"#.utf8)
        #expect(try errorPointers(try evaluate(body)) == ["/extra"])
        let feature = try evaluate(Requests.payment(features: #""activeCall": 1, "callDurationSeconds": 640, "screenSharingActive": 0, "sessionDurationSeconds": 95, "timeOfDayBand": 2, "amountBandRelativeToUsual": 3, "\#(long)": 1"#))
        #expect(try errorPointers(feature) == ["/features"], "\(feature.text)")
        #expect(!feature.text.contains(long))
    }

    @Test func contentCodingsAndCharsetsOtherThanUTF8AreRefusedWith415() throws {
        let gzip = try evaluate(Requests.payment(), headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")])
        #expect(gzip.status == 415)
        #expect(gzip.text.contains("Content-Encoding"))
        // RFC 9110 section 15.5.16: a 415 for a content coding says which codings would be accepted.
        #expect(gzip.header("Accept-Encoding") == "identity")
        let utf16 = try evaluate(Requests.payment(), headers: [("Content-Type", "application/json; charset=utf-16")])
        #expect(utf16.status == 415)
        let quoted = try evaluate(Requests.payment(), headers: [("Content-Type", #"application/json; charset="UTF-8""#)])
        #expect(quoted.status == 200)
        let identity = try evaluate(Requests.payment(), headers: [("Content-Type", "application/json"), ("Content-Encoding", "identity")])
        #expect(identity.status == 200)
    }

    @Test func twoAuthorizationLinesOrTwoOverrideLinesAreRefused() throws {
        let twice = try service.client().request("POST", "/v1/evaluations", headers: [
            ("Authorization", "Bearer \(clientKey)"), ("Authorization", "Bearer \(clientKey)"), ("Content-Type", "application/json"),
        ], body: Requests.payment())
        #expect(twice.status == 400)
        #expect(twice.text.contains("Authorization"))
        let overrides = try evaluate(Requests.payment(), headers: [
            ("Content-Type", "application/json"), ("Trust-Insights-Override-Outcome", "high"), ("Trust-Insights-Override-Outcome", "medium"),
        ])
        #expect(overrides.status == 400)
        #expect(try problemType(overrides).hasSuffix("invalid-override"))
        #expect(try errorPointers(overrides) == ["Trust-Insights-Override-Outcome"])
    }

    /// A misspelt override would be ignored, and the app test it was meant for would pass for the wrong reason.
    @Test func aHeaderNamedLikeAnOverrideThatIsNoneIsRefused() throws {
        let misspelt = try evaluate(Requests.payment(), headers: [
            ("Content-Type", "application/json"), ("trust-insights-override-outcomes", "high"),
        ])
        #expect(misspelt.status == 400)
        #expect(try problemType(misspelt).hasSuffix("invalid-override"))
        #expect(try errorPointers(misspelt) == ["trust-insights-override-outcomes"])
        #expect(misspelt.text.contains("Trust-Insights-Override-Outcome, Trust-Insights-Override-Insight-Error"))
        // Known names in any case still work.
        let lower = try evaluate(Requests.payment(), headers: [
            ("Content-Type", "application/json"), ("trust-insights-override-outcome", "high"),
        ])
        #expect(lower.status == 200, "\(lower.text)")
        // Near misses of the whole name are refused too (conformance probe, 6 December); headers that merely
        // mention an override, or share only the product's name, are not.
        for name in ["X-Trust-Insights-Override-Outcome", "Trust-Insight-Override-Outcome", "Trust-Insights-Override", "x-trust-insight-override-x"] {
            let nearMiss = try evaluate(Requests.payment(), headers: [("Content-Type", "application/json"), (name, "high")])
            #expect(nearMiss.status == 400, "\(name): \(nearMiss.text)")
            #expect(try problemType(nearMiss).hasSuffix("invalid-override"), "\(name)")
            #expect(try errorPointers(nearMiss) == [name])
        }
        for name in ["X-HTTP-Method-Override", "Trust-Insights-Client", "X-Trust-Insights-Version"] {
            let unrelated = try evaluate(Requests.payment(), headers: [("Content-Type", "application/json"), (name, "high")])
            #expect(unrelated.status == 200, "\(name): \(unrelated.text)")
        }
        // A name that does not read like a field name is not repeated, nor kilobytes of one.
        for name in ["Trust-Insights-Override-jane.doe'%hotmail!com", "Trust-Insights-Override-" + String(repeating: "x", count: 4000)] {
            let unrepeated = try evaluate(Requests.payment(), headers: [("Content-Type", "application/json"), (name, "1")])
            #expect(unrepeated.status == 400)
            #expect(try errorPointers(unrepeated) == ["Trust-Insights-Override-*"], "\(unrepeated.text)")
            #expect(!unrepeated.text.contains("hotmail") && !unrepeated.text.contains("xxxx"))
            #expect(unrepeated.body.count < 1024)
        }
    }

    @Test func refusalsOfAnAdmittedEvaluationCarryTheKeysLimit() throws {
        let refused = try evaluate(Array(#"{"operationCategory": "payment"}"#.utf8))
        #expect(refused.status == 400)
        #expect(refused.header("RateLimit-Policy")?.hasPrefix("\"key\"") == true)
        #expect(refused.header("RateLimit") != nil)
    }

    @Test func thePublicFrameworksTypeNameIsUnderstoodAndEchoed() throws {
        let response = try evaluate(Requests.payment(
            insights: #"{"insightType": "IsLikelyBeingCoachedInsight", "schema": "version1", "modelVersion": "current"}"#))
        #expect(response.status == 200)
        let insight = try #require((try jsonObject(response)["insights"] as? [[String: Any]])?.first)
        #expect(insight["insightType"] as? String == "IsLikelyBeingCoachedInsight")
        #expect((insight["outcome"] as? [String: String])?["value"] != nil)
    }

    @Test func identifiersAreReadInEitherCase() throws {
        let evaluated = try service.evaluate(key: clientKey, account: "acct-case")
        let report = try service.post(
            "/v1/evaluations/\(evaluated.evaluationID.uppercased())/consumption", key: clientKey,
            body: #"{"status": "usedIncreasedFriction", "insightIDsUsed": ["\#(evaluated.insightIDs[0].uppercased())"]}"#)
        #expect(report.status == 201)
    }

    @Test func optionsAsteriskListsTheMethodsSomeRouteServes() throws {
        let response = try service.client().request("OPTIONS", "*")
        let allow = try #require(response.header("Allow"))
        #expect(allow.contains("POST") && allow.contains("PUT") && allow.contains("GET"))
        #expect(!allow.contains("PATCH") && !allow.contains("DELETE"))
    }

    // A second outside review (22 November): four answers that did not follow the contract.

    /// `ww%FE` and `ww%FF` are not UTF-8 once decoded; decoded with replacement characters they were one subject,
    /// so opting in on one cancelled the other's pending opt-out. They are refused, naming the parameter, and a
    /// real U+FFFD (`%EF%BF%BD`) is still an ordinary ref.
    @Test func aPathRefWhoseEscapesAreNotUTF8IsRefusedNotMergedWithAnother() throws {
        let auth = [("Authorization", "Bearer \(clientKey)")]
        for path in ["/v1/authorization/ww%FE", "/v1/authorization/ww%ff", "/v1/authorization/ww%80", "/v1/authorization/%C3"] {
            let get = try service.client().request("GET", path, headers: auth)
            #expect(get.status == 400, "\(path)")
            #expect(try problemType(get).hasSuffix("/invalid-parameter"), "\(path)")
            #expect(try errorPointers(get) == ["subjectRef"], "\(path)")
            let put = try service.client().request(
                "PUT", path, headers: auth + [("Content-Type", "application/json")], body: Array(#"{"status": "denied"}"#.utf8))
            #expect(put.status == 400, "\(path)")
        }
        let replacement = try service.client().request("GET", "/v1/authorization/ww%EF%BF%BD", headers: auth)
        #expect(replacement.status == 200, "\(replacement.text)")
    }

    /// 401 and 403 come before 415: a caller without access learns nothing of the route's media types, whichever
    /// route it calls (labels always did this).
    @Test func credentialsAreCheckedBeforeTheBodysMediaTypeOrCoding() throws {
        let partnerKey = try service.key(role: .partner)
        let text = [("Content-Type", "text/plain")]
        let gzip = [("Content-Type", "application/json"), ("Content-Encoding", "gzip")]
        let routes: [(String, String)] = [
            ("POST", "/v1/evaluations"), ("POST", "/v1/evaluations/00000000-0000-7000-8000-000000000000/consumption"),
            ("PUT", "/v1/authorization/someone"),
        ]
        for (method, path) in routes {
            for headers in [text, gzip] {
                let anonymous = try service.client().request(method, path, headers: headers, body: Array("{}".utf8))
                #expect(anonymous.status == 401, "\(method) \(path) \(headers)")
                let partner = try service.client().request(
                    method, path, headers: headers + [("Authorization", "Bearer \(partnerKey)")], body: Array("{}".utf8))
                #expect(partner.status == 403, "\(method) \(path) \(headers)")
                let client = try service.client().request(
                    method, path, headers: headers + [("Authorization", "Bearer \(clientKey)")], body: Array("{}".utf8))
                #expect(client.status == 415, "\(method) \(path) \(headers)")
            }
        }
    }

    /// Two Content-Type lines are one comma-joined value (RFC 9110 §5.3), which is no media type, in either order.
    @Test func twoContentTypeLinesAreRefusedInEitherOrder() throws {
        for headers in [[("Content-Type", "application/json"), ("Content-Type", "text/plain")],
                        [("Content-Type", "text/plain"), ("Content-Type", "application/json")],
                        [("Content-Type", "application/json"), ("Content-Type", "application/json")]] {
            let response = try evaluate(Requests.payment(), headers: headers)
            #expect(response.status == 415, "\(headers)")
        }
    }

    /// The contract requires `subject`: without it the answer names `/subject`, not the refs inside it.
    @Test func aMissingSubjectIsNamedAsSuch() throws {
        let body = #"{"operationCategory": "payment", "requestedInsights": [{"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": "current"}], "features": {"activeCall": 1}}"#
        let response = try evaluate(Array(body.utf8))
        #expect(response.status == 400)
        // The features are checked all the same (the required ones this body lacks are named too).
        let pointers = try errorPointers(response)
        #expect(pointers.first == "/subject", "\(response.text)")
        #expect(pointers.dropFirst().allSatisfy { $0.hasPrefix("/features/") }, "\(response.text)")
        #expect(pointers.contains("/features/timeOfDayBand"), "\(response.text)")
        let bare = try evaluate(Array(#"{"operationCategory": "payment"}"#.utf8))
        #expect(Set(try errorPointers(bare)) == ["/requestedInsights", "/features", "/subject"], "\(bare.text)")
    }

    /// From an outside review with real clients against RFC 9110, 9111, 9112 and 6750.
    @Test func cachesAreToldNotToKeepAnswersAndPublicDocumentsSayWhatTheyAllow() throws {
        let evaluation = try evaluate(Requests.payment(requestID: "cache-check"))
        #expect(evaluation.status == 200)
        #expect(evaluation.header("Cache-Control") == "no-store")
        let client = try service.client()
        for (path, expected) in [("/v1/models", "no-store"), ("/healthz", "no-store"), ("/nowhere", "no-store"),
                                 ("/v1/signing-keys", "no-cache"), ("/openapi.yaml", "public, max-age=3600")] {
            let response = try client.request("GET", path, headers: path == "/v1/models" ? [("Authorization", "Bearer \(clientKey)")] : [])
            #expect(response.header("Cache-Control") == expected, "\(path)")
            #expect(response.headers.filter { $0.0.lowercased() == "cache-control" }.count == 1, "\(path): one field")
        }
    }

    @Test func aWrongBearerCredentialIsAnInvalidTokenAndNoCredentialIsNoError() throws {
        let client = try service.client()
        let none = try client.request("GET", "/v1/models")
        #expect(none.status == 401)
        #expect(none.header("WWW-Authenticate") == #"Bearer realm="trust-insights""#)
        for credential in ["Bearer ti_sandbox_k0000000000000000_nope", "bearer not-even-a-key", "Bearer", "Bearer\tx"] {
            let wrong = try client.request("GET", "/v1/models", headers: [("Authorization", credential)])
            #expect(wrong.status == 401)
            #expect(wrong.header("WWW-Authenticate") == #"Bearer realm="trust-insights", error="invalid_token""#)
        }
        let otherScheme = try client.request("GET", "/v1/models", headers: [("Authorization", "Basic dTpw")])
        #expect(otherScheme.header("WWW-Authenticate") == #"Bearer realm="trust-insights""#, "another scheme is no token")
        // Two credentials: RFC 6750 §3.1's invalid_request, with its challenge (§3: every answer to credentials that
        // give no access carries one).
        let twice = try client.request("GET", "/v1/models", headers: [("Authorization", "Bearer a"), ("Authorization", "Bearer b")])
        #expect(twice.status == 400)
        #expect(twice.header("WWW-Authenticate") == #"Bearer realm="trust-insights", error="invalid_request""#)
    }

    @Test func hostValuesThatAreNoAuthorityAreRefusedAndConnectIsNotImplemented() throws {
        for host in ["a:80:80", "::1", ":80", "a%zz", "[zz]"] {
            let client = try service.client()
            client.send(Array("GET /healthz HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8))
            let response = try client.readResponse()
            #expect(response.status == 400, "\(host)")
            #expect(response.text.contains("Host field value is not a valid authority"), "\(host)")
        }
        let connect = try service.client()
        connect.send(Array("CONNECT 127.0.0.1:\(service.port) HTTP/1.1\r\nHost: 127.0.0.1:\(service.port)\r\n\r\n".utf8))
        #expect(try connect.readResponse().status == 501)
        let escape = try service.client().request("GET", "/v1/authorization/a%zz")
        #expect(escape.status == 400)
        #expect(escape.text.contains("not followed by two hexadecimal digits"))
    }
}
