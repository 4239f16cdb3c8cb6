import Glibc
import FoundationEssentials
@testable import HTTPServer
import Testing

@Suite("Message types")
struct MessageTypeTests {
    @Test func fieldsAreCaseInsensitiveAndOrdered() {
        var fields = HTTPFields()
        fields.append(name: "Accept", value: "a")
        fields.append(name: "accept", value: "b")
        fields.append(name: "X-One", value: "1")
        #expect(fields["ACCEPT"] == "a")
        #expect(fields.values(for: "Accept") == ["a", "b"])
        fields.set("accept", "c")
        #expect(fields.values(for: "Accept") == ["c"])
        fields.remove("x-one")
        #expect(fields.map(\.name) == ["accept"])
    }

    @Test func namesCompareByASCIICaseOnlyAndPrefixesToo() {
        var fields = HTTPFields()
        fields.append(name: "X-Trace-Id", value: "1")
        fields.append(name: "Trust-INSIGHTS-override-Outcome", value: "high")
        #expect(fields["x-trace-id"] == "1")
        #expect(fields["X-Trace-I"] == nil)
        // Letters only fold with letters: "[" (0x5B) is "{" (0x7B) less 0x20, and must not match it.
        fields.append(name: "a[b", value: "2")
        #expect(fields["A{B"] == nil)
        #expect(fields["A[B"] == "2")
        #expect(fields.containsName(withPrefix: "trust-insights-override-"))
        #expect(fields.containsName(withPrefix: "Trust-Insights-Override-Outcome"))
        #expect(!fields.containsName(withPrefix: "Trust-Insights-Override-Outcome-"))
        #expect(!fields.containsName(withPrefix: "X-Trace-Id-Extra"))
        #expect(!HTTPFields().containsName(withPrefix: "a"))
        #expect(!fields.containsName(withPrefix: "A{"))
    }

    @Test func decodesQueryItems() {
        let request = HTTPRequest(method: .get, target: "/?a=1&b=x+y%21&c&=e&d=%zz", path: "/", query: "a=1&b=x+y%21&c&=e&d=%zz")
        let items = request.queryItems
        #expect(items.map(\.name) == ["a", "b", "c", "", "d"])
        #expect(items.map(\.value) == ["1", "x y!", "", "e", "%zz"])
        #expect(request.queryItem("b") == "x y!")
    }

    @Test func encodesProblemDetailsWithExtensionsAtTopLevel() throws {
        var problem = ProblemDetails(slug: "invalid-features", status: .unprocessableContent, detail: "2 errors")
        problem.errors = [ProblemDetails.FieldError(pointer: "/features/activeCall", detail: "must be 0 or 1")]
        problem.extensions = ["retryAfter": "5", "status": "ignored"]
        let data = try JSONEncoder().encode(problem)
        let object = try JSONDecoder().decode([String: JSONValue].self, from: data)
        #expect(object["type"] == .string("https://trust-insights.dev/problems/invalid-features"))
        #expect(object["status"] == .number(422))
        #expect(object["retryAfter"] == .string("5"))
        let decoded = try JSONDecoder().decode(ProblemDetails.self, from: data)
        #expect(decoded.errors == problem.errors)
        #expect(decoded.extensions == ["retryAfter": "5"])
    }

    @Test func rendersAccessLogLineAsOneJSONObject() throws {
        let line = AccessLogLine(
            requestID: "id\"1", method: "GET", route: "/a/{b}", status: 200, durationNanoseconds: 1_234_567, bytes: 10
        ).render(time: "2026-01-01T00:00:00.000Z")
        #expect(line == #"{"time":"2026-01-01T00:00:00.000Z","level":"info","event":"request","requestID":"id\"1","method":"GET","route":"/a/{b}","status":200,"durationMs":1.234,"bytes":10}"#)
        _ = try JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8))
    }

    /// An unknown method may be any token up to the request line's limit: the log keeps its first 24 bytes.
    @Test func logsALongMethodCutShort() {
        let method = String(repeating: "X", count: 5000)
        let line = AccessLogLine(requestID: "r", method: method, route: "-", status: 501, durationNanoseconds: 0, bytes: 0)
            .render(time: "2026-01-01T00:00:00.000Z")
        #expect(line.contains(#""method":"\#(String(repeating: "X", count: 24))...","#))
        #expect(line.utf8.count < 300)
        let exact = AccessLogLine(requestID: "r", method: String(repeating: "Y", count: 24), route: "-", status: 501, durationNanoseconds: 0, bytes: 0)
        #expect(exact.render().contains(#""method":"\#(String(repeating: "Y", count: 24))","#))
    }

    /// A key's random part sent as the method had 24 of its characters logged (security probe, 6 December): a method
    /// longer than 8 bytes with a lower-case letter is not shown; short ones and upper-case ones are.
    @Test func doesNotShowALongMethodWithLowerCaseLetters() {
        func logged(_ method: String) -> String {
            AccessLogLine(requestID: "r", method: method, route: "-", status: 501, durationNanoseconds: 0, bytes: 0)
                .render(time: "2026-01-01T00:00:00.000Z")
        }
        let secret = "JKqxlUT55ZkFI86S5eUjQ5QhsYE2ZOtEtPuowtIbGiY"
        #expect(logged(secret).contains(#""method":"(not shown)","#) && !logged(secret).contains("JKqx"))
        #expect(logged("ti_sandbox_k066436afbc574f44").contains(#""method":"(not shown)","#))
        for shown in ["get", "Post", "M-SEARCH", "PROPFIND", "BASELINE-CONTROL", "brew1234"] {
            #expect(logged(shown).contains(#""method":"\#(shown)","#), "\(shown)")
        }
    }

    @Test func rendersTheIdentityMemberAfterTheRouteEscaped() throws {
        var line = AccessLogLine(
            requestID: "r", method: "POST", route: "/v1/x", status: 401, durationNanoseconds: 0, bytes: 0)
        line.identity = ("keyID", "k\"1")
        let text = line.render(time: "2026-01-01T00:00:00.000Z")
        #expect(text == #"{"time":"2026-01-01T00:00:00.000Z","level":"info","event":"request","requestID":"r","method":"POST","route":"/v1/x","keyID":"k\"1","status":401,"durationMs":0.0,"bytes":0}"#)
        _ = try JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
    }

    @Test func marksASimulatedAnswerBeforeItsStatus() {
        var line = AccessLogLine(requestID: "r", method: "POST", route: "/v1/x", status: 503, durationNanoseconds: 0, bytes: 0)
        line.simulated = true
        #expect(line.render(time: "t").contains(#""route":"/v1/x","simulated":true,"status":503,"#))
    }

    @Test func formatsTimestamps() {
        #expect(UTCTimestamp.imfFixdate(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        var time = timespec()
        time.tv_sec = 784_111_777
        time.tv_nsec = 5_000_000
        #expect(UTCTimestamp.iso8601(time) == "1994-11-06T08:49:37.005Z")
    }

    @Test func acceptsOnlyVisibleASCIIRequestIDsUpTo128() {
        #expect(RequestIDGenerator.isAcceptable("a"))
        #expect(RequestIDGenerator.isAcceptable(String(repeating: "z", count: 128)))
        #expect(!RequestIDGenerator.isAcceptable(""))
        #expect(!RequestIDGenerator.isAcceptable(String(repeating: "z", count: 129)))
        #expect(!RequestIDGenerator.isAcceptable("a b"))
        #expect(!RequestIDGenerator.isAcceptable("é"))
        var generator = RequestIDGenerator(seed: 1)
        #expect(generator.generate() != generator.generate())
    }

    /// An API key pasted into `X-Request-ID` was echoed and written to the access log (found by a tenancy probe);
    /// one after other text still was (resources probe, 6 December).
    @Test func replacesRequestIDsThatHoldARefusedMarkerAnywhere() {
        var generator = RequestIDGenerator(seed: 1, refusedMarkers: ["ti_sandbox_"])
        #expect(generator.requestID(incoming: "order-7") == "order-7")
        #expect(generator.requestID(incoming: "ti_sandbo") == "ti_sandbo")
        #expect(generator.requestID(incoming: "x-ti_sandboxk") == "x-ti_sandboxk")
        for leaked in ["ti_sandbox_k0123456789abcdef_secret", "xti_sandbox_k", "order-7:ti_sandbox_k", "TI_SANDBOX_K", "ab_ti_sandbox_"] {
            let replaced = generator.requestID(incoming: leaked)
            #expect(replaced != leaked)
            #expect(!replaced.lowercased().contains("ti_sandbox_"))
            #expect(replaced.utf8.count == 32)
        }
    }

    /// A key's random part pasted without the prefix that marks it, with its separators changed or percent-encoded
    /// was kept and logged (security and regression probes, 6 December): a value with that many letters and digits,
    /// both cases among them, whatever stands between them, is refused as well.
    @Test func replacesRequestIDsThatHoldAsManyLettersAndDigitsAsASecret() {
        var generator = RequestIDGenerator(seed: 1, refusedMarkers: ["ti_sandbox_"], refusedLetterAndDigitCount: 32)
        let secret = "n099XTjD8xBKxrGqSLSnZFQ2ZlFD4-0tX79Ty9Uqef4"
        let sha256 = "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"
        let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        for kept in ["550e8400-e29b-41d4-a716-446655440000", "550E8400-E29B-41D4-A716-446655440000", sha256, sha256.uppercased(),
                     traceparent, String(repeating: "a", count: 60), "Order-7/" + String(secret.prefix(23)), "01HZX3K9QV8W2N5M7P4R6T8Y0B"] {
            #expect(generator.requestID(incoming: kept) == kept, "\(kept)")
        }
        let encoded = "ti%5Fsandbox%5Fkcd057e68e444acc9%5F" + secret.replacing("-", with: "%2D")
        for leaked in [secret, "k066436afbc574f44_\(secret)", "ti-sandbox-k066436afbc574f44-\(secret)", encoded, encoded.replacing("%5F", with: "%5f").replacing("%2D", with: "%2d"),
                       "ti.sandbox.kcd057e68e444acc9." + secret.replacing("-", with: "."),
                       secret.replacing("-", with: "%2D"), "Bearer_ti.sandbox.k066436afbc574f44.\(secret)"] {
            let replaced = generator.requestID(incoming: leaked)
            #expect(replaced != leaked && replaced.utf8.count == 32, "\(leaked)")
        }
        var unlimited = RequestIDGenerator(seed: 1)
        #expect(unlimited.requestID(incoming: secret) == secret)
        // Every character escaped is digits and one case of letters as written (security probe, 6 December): judged
        // decoded as well, once and twice; escapes of a hex digest or a UUID are kept.
        let everyCharacter = secret.prefix(40).utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
        // Twice escaped, 128 bytes hold too few of a key's characters to count; the marker is found all the same.
        let markerTwice = "ti_sandbox_".utf8.map { "%25" + String($0, radix: 16, uppercase: true) }.joined() + "k066"
        for leaked in [everyCharacter, everyCharacter.lowercased(), markerTwice] {
            let replaced = generator.requestID(incoming: String(leaked.prefix(128)))
            #expect(replaced != String(leaked.prefix(128)) && replaced.utf8.count == 32, "\(leaked)")
        }
        for kept in ["req%20" + String(sha256.prefix(40)), "%2f" + "550e8400-e29b-41d4-a716-446655440000", "100%25", "%zz%"] {
            #expect(generator.requestID(incoming: kept) == kept, "\(kept)")
        }
    }
}

enum JSONValue: Decodable, Equatable {
    case string(String)
    case number(Double)
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .other
        }
    }
}

@Suite("Byte classes")
struct ByteClassTests {
    @Test func masksMatchTheGrammarSets() {
        func expected(_ extra: String) -> (UInt8) -> Bool {
            { byte in
                byte < 128 && (Character(Unicode.Scalar(byte)).isLetter && Character(Unicode.Scalar(byte)).isASCII
                    || (byte >= 48 && byte <= 57) || extra.utf8.contains(byte))
            }
        }
        let token = expected("!#$%&'*+-.^_`|~")
        let target = expected("-._~:/?[]@!$&'()*+,;=%")
        for byte in UInt8.min...UInt8.max {
            #expect(ByteClass.isToken(byte) == token(byte), "token \(byte)")
            #expect(ByteClass.isTarget(byte) == target(byte), "target \(byte)")
        }
    }
}

@Suite("Problem responses")
struct ProblemResponseTests {
    @Test func rendersProblemAsProblemJSONWithItsStatus() throws {
        let response = HTTPResponse.problem(
            ProblemDetails(slug: "rate-limited", status: .tooManyRequests), headers: ["Retry-After": "3"])
        #expect(response.status == .tooManyRequests)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(response.headers["Retry-After"] == "3")
        let decoded = try JSONDecoder().decode(ProblemDetails.self, from: Data(response.body))
        #expect(decoded.type == "https://trust-insights.dev/problems/rate-limited")
        #expect(decoded.status == 429)
    }
}

@Suite("Request IDs")
struct RequestIDTests {
    @Test func generatesThirtyTwoLowercaseHexDigits() {
        var generator = RequestIDGenerator(seed: 42)
        for _ in 0..<100 {
            let id = generator.generate()
            #expect(id.utf8.count == 32)
            #expect(id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) })
        }
    }
}
