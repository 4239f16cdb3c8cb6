@testable import HTTPServer
import Testing

@Suite("Router")
struct RouterTests {
    static func router() -> Router {
        var router = Router()
        let ok: HTTPHandler = { _, _ in HTTPResponse() }
        router.add(.get, "/v1/models", handler: ok)
        router.add(.post, "/v1/evaluations", handler: ok)
        router.add(.post, "/v1/evaluations/{evaluationID}/consumption", handler: ok)
        router.add(.get, "/v1/authorization/{subjectRef}", handler: ok)
        router.add(.put, "/v1/authorization/{subjectRef}", handler: ok)
        router.add(.get, "/v1/evaluations/latest", handler: ok)
        return router
    }

    @Test func extractsAndPercentDecodesParameters() {
        guard case .found(let route, let parameters) = Self.router().resolve(
            method: .post, path: "/v1/evaluations/ev%2F42/consumption")
        else {
            Issue.record("not found")
            return
        }
        #expect(route.template.text == "/v1/evaluations/{evaluationID}/consumption")
        #expect(parameters == ["evaluationID": "ev/42"])
    }

    @Test func prefersLiteralSegmentsOverParameters() {
        guard case .found(let route, let parameters) = Self.router().resolve(method: .get, path: "/v1/evaluations/latest")
        else {
            Issue.record("not found")
            return
        }
        #expect(route.template.text == "/v1/evaluations/latest")
        #expect(parameters.isEmpty)
    }

    /// RFC 3986 §6.2.2.2: an escaped unreserved character is the character itself, in either hex case; an escaped
    /// reserved one (`%2F`) is not a separator, and a bad escape stays literal.
    @Test func matchesLiteralSegmentsWrittenWithEscapedUnreservedCharacters() {
        let router = Self.router()
        for path in ["/v1/%6dodels", "/%76%31/models", "/v1/mod%65ls", "/v1/MODELS".lowercased(), "/v1/%6Dodels"] {
            guard case .found(let route, _) = router.resolve(method: .get, path: path) else {
                Issue.record("\(path) should be /v1/models")
                continue
            }
            #expect(route.template.text == "/v1/models")
        }
        guard case .found(let route, let parameters) = router.resolve(method: .get, path: "/v1/evaluations/l%61test") else {
            Issue.record("not found")
            return
        }
        #expect(route.template.text == "/v1/evaluations/latest")
        #expect(parameters.isEmpty)
        for path in ["/v1%2Fmodels", "/v1/%2Fmodels", "/v1/models%2F", "/v1/%6", "/v1/%zzodels", "/v1/%4dodels"] {
            guard case .notFound = router.resolve(method: .get, path: path) else {
                Issue.record("\(path) should not be found")
                continue
            }
        }
        #expect(PercentDecoding.decodeUnreserved("a%7e%7E%2f%25%41%") == "a~~%2f%25A%")
    }

    @Test func answersUnknownPathsAsNotFound() {
        let router = Self.router()
        for path in ["/", "/v1", "/v1/models/extra", "/v1/models/", "/v2/models", "/v1/evaluations/1/other"] {
            guard case .notFound = router.resolve(method: .get, path: path) else {
                Issue.record("\(path) should not be found")
                continue
            }
        }
    }

    @Test func anEmptySegmentIsNotMerged() {
        let router = Self.router()
        for path in ["//v1/models", "/v1//models", "/v1/authorization//abc", "/v1/evaluations//consumption", "//"] {
            guard case .notFound = router.resolve(method: .get, path: path) else {
                Issue.record("\(path) should not be found")
                continue
            }
        }
        guard case .found(_, let parameters) = router.resolve(method: .get, path: "/v1/authorization/abc") else {
            Issue.record("the same path without the empty segment is found")
            return
        }
        #expect(parameters["subjectRef"] == "abc")
    }

    /// Dot segments are not removed, like empty ones: a proxy rule cannot be passed by `..`, and a parameter of `.` or
    /// `..` is that value, escaped or not (`%2E` is an escaped unreserved character).
    @Test func dotSegmentsAreNotRemoved() {
        let router = Self.router()
        for path in ["/v1/./models", "/v1/x/../models", "/v1/authorization/../models", "/./v1/models"] {
            guard case .notFound = router.resolve(method: .get, path: path) else {
                Issue.record("\(path) should not be found")
                continue
            }
        }
        for (path, value) in [("/v1/authorization/.", "."), ("/v1/authorization/..", ".."), ("/v1/authorization/%2E%2e", "..")] {
            guard case .found(_, let parameters) = router.resolve(method: .get, path: path) else {
                Issue.record("\(path) should reach the route")
                continue
            }
            #expect(parameters["subjectRef"] == value, "\(path)")
        }
    }

    /// Decoded with replacement characters, `a%FF` and `a%FE` would be one parameter value; they are left out
    /// instead, and the route answers as for a missing parameter. Escaped UTF-8 decodes as usual.
    @Test func aParameterWhoseEscapesAreNotUTF8IsLeftOut() {
        for path in ["/v1/authorization/a%FF", "/v1/authorization/a%fe", "/v1/authorization/%C3", "/v1/authorization/%ED%A0%80"] {
            guard case .found(_, let parameters) = Self.router().resolve(method: .get, path: path) else {
                Issue.record("\(path) should reach the route")
                continue
            }
            #expect(parameters["subjectRef"] == nil, "\(path)")
        }
        guard case .found(_, let parameters) = Self.router().resolve(method: .get, path: "/v1/authorization/%C3%A9%EF%BF%BDx%2Fy")
        else {
            Issue.record("escaped UTF-8 reaches the route")
            return
        }
        #expect(parameters["subjectRef"] == "\u{E9}\u{FFFD}x/y")
    }

    @Test func listsThePathsMethodsInAllow() {
        guard case .methodNotAllowed(let allow) = Self.router().resolve(method: .delete, path: "/v1/authorization/x")
        else {
            Issue.record("expected 405")
            return
        }
        #expect(allow == "GET, PUT, HEAD, OPTIONS")
    }

    @Test func answersUnknownMethodsAsNotImplemented() {
        guard case .methodNotImplemented = Self.router().resolve(method: HTTPMethod(rawValue: "BREW"), path: "/v1/models")
        else {
            Issue.record("expected 501 for an unknown method")
            return
        }
        // Whatever the path: the method is what the server does not implement (RFC 9110 §9.1), not the resource.
        for path in ["/nowhere", "*", "/v1/models/"] {
            guard case .methodNotImplemented = Self.router().resolve(method: HTTPMethod(rawValue: "BREW"), path: path) else {
                Issue.record("expected 501 for an unknown method on \(path)")
                continue
            }
        }
    }

    /// CONNECT asks for a tunnel to an authority: 501 whatever the authority, even one spelt like a route's path.
    @Test func answersConnectAsNotImplemented() {
        for target in ["127.0.0.1:8080", "example.com:443", "/v1/models"] {
            guard case .methodNotImplemented = Self.router().resolve(method: .connect, path: target) else {
                Issue.record("expected 501 for CONNECT \(target)")
                continue
            }
        }
    }

    @Test func answersQueryOnAKnownPathAsNotAllowed() {
        guard case .methodNotAllowed(let allow) = Self.router().resolve(method: .query, path: "/v1/models") else {
            Issue.record("expected 405 for QUERY, a registered method")
            return
        }
        #expect(allow.contains("GET"))
    }

    @Test func servesHeadThroughGet() {
        guard case .headViaGet = Self.router().resolve(method: .head, path: "/v1/models") else {
            Issue.record("expected HEAD via GET")
            return
        }
        guard case .methodNotAllowed = Self.router().resolve(method: .head, path: "/v1/evaluations") else {
            Issue.record("HEAD is only implied by GET")
            return
        }
    }

    @Test func answersOptionsAutomatically() {
        guard case .automaticOptions(let allow) = Self.router().resolve(method: .options, path: "/v1/evaluations") else {
            Issue.record("expected automatic OPTIONS")
            return
        }
        #expect(allow == "POST, OPTIONS")
    }

    @Test func routerIsAValue() {
        var first = Router()
        first.add(.get, "/a") { _, _ in HTTPResponse() }
        var second = first
        second.add(.get, "/b") { _, _ in HTTPResponse() }
        guard case .notFound = first.resolve(method: .get, path: "/b") else {
            Issue.record("adding to a copy changed the original")
            return
        }
    }

    /// Literal paths are looked up in an index before the trie; after a copy, each router's index points at its
    /// own trie, so replacing a handler in the copy leaves the original's alone.
    @Test func aCopysLiteralPathsFollowItsOwnRoutes() {
        var first = Router()
        first.add(.get, "/a/b", options: RouteOptions(bodyLimit: 1)) { _, _ in HTTPResponse() }
        var second = first
        second.add(.get, "/a/b", options: RouteOptions(bodyLimit: 2)) { _, _ in HTTPResponse() }
        second.add(.post, "/a/b") { _, _ in HTTPResponse() }
        guard case .methodNotAllowed = first.resolve(method: .post, path: "/a/b"),
            case .found(let original, _) = first.resolve(method: .get, path: "/a/b"),
            case .found(let replaced, _) = second.resolve(method: .get, path: "/a/b"),
            case .found = second.resolve(method: .post, path: "/a/b")
        else {
            Issue.record("a copy's routes leaked into the original, or the copy lost its own")
            return
        }
        #expect(original.options.bodyLimit == 1)
        #expect(replaced.options.bodyLimit == 2)
    }

    /// The literal index answers exactly what the trie would: only whole paths without escapes, trailing slashes
    /// or empty segments, and only templates without parameters.
    @Test func literalPathsResolveAsTheTrieDoes() {
        let router = Self.router()
        #expect(router.literalPaths.keys.sorted() == ["/v1/evaluations", "/v1/evaluations/latest", "/v1/models"])
        for path in ["/v1/models/", "//v1/models", "/v1//models", "/v1/models?x"] {
            guard case .notFound = router.resolve(method: .get, path: path) else {
                Issue.record("\(path) should not be found")
                continue
            }
        }
        guard case .found(let route, let parameters) = router.resolve(method: .get, path: "/v1/authorization/models")
        else {
            Issue.record("a parameter route should still be found")
            return
        }
        #expect(route.template.text == "/v1/authorization/{subjectRef}")
        #expect(parameters == ["subjectRef": "models"])
    }

    @Test func matchesContentTypeOnMediaTypeOnly() {
        let options = RouteOptions(acceptedContentTypes: ["application/json"])
        #expect(options.accepts(contentType: "application/json"))
        #expect(options.accepts(contentType: "APPLICATION/JSON ; charset=utf-8"))
        #expect(!options.accepts(contentType: "application/jsonx"))
        #expect(!options.accepts(contentType: "application/json;charset=latin1"))
        #expect(options.accepts(contentType: "application/json;charset=\"UTF-8\""))
        // UTF-8's IANA alias and the unregistered name many clients send; other aliases of other charsets are not it.
        #expect(options.accepts(contentType: "application/json; charset=csUTF8"))
        #expect(options.accepts(contentType: "application/json; charset=UTF8"))
        #expect(!options.accepts(contentType: "application/json; charset=csUTF16"))
        #expect(!options.accepts(contentType: "text/plain"))
        // Parameters are name=value, the value a token or a quoted string (RFC 9110 §5.6.6); quoted-pairs are undone.
        #expect(options.accepts(contentType: "application/json;charset=\"utf\\-8\""))
        #expect(options.accepts(contentType: "application/json; profile=\"a;b\"; charset=utf-8"))
        #expect(!options.accepts(contentType: "application/json; profile=\"a;charset=latin1\"x; charset=latin1"))
        #expect(!options.accepts(contentType: "application/json; profile=\"a;b\"; charset=latin1"))
        #expect(options.accepts(contentType: "application/json;"))
        // The grammar allows empty parameters and whitespace around the semicolons: `*( OWS ";" OWS [ parameter ] )`.
        #expect(options.accepts(contentType: "application/json;;charset=utf-8"))
        #expect(options.accepts(contentType: "application/json ;\tcharset=utf-8 ; foo=bar "))
        #expect(options.accepts(contentType: "application/json; foo=\"\"; charset=utf-8"))
        for malformed in ["application/json; charset", "application/json; charset=", "application/json; =utf-8",
                          "application/json; charset=\"\"", "application/json; charset=\"utf-8", "application/json; charset=\"utf-8\"x",
                          "application/json; charset = utf-8", "application/json; charset =utf-8", "application/json; charset= utf-8",
                          "application/json; char set=utf-8", "application/json; charset=utf 8", "application/json; charset=utf-8,x"] {
            #expect(!options.accepts(contentType: malformed), "\(malformed)")
        }
        #expect(!options.accepts(contentType: nil))
        #expect(RouteOptions().accepts(contentType: nil))
    }
}
