/// The outcome of looking a request up in the router, before its body is read.
enum RouteResolution: Sendable {
    case found(Router.Route, parameters: [String: String])
    /// HEAD on a GET route: the GET handler runs and the body is dropped.
    case headViaGet(Router.Route, parameters: [String: String])
    /// OPTIONS on a path with no OPTIONS handler: answered by the server with `Allow`.
    case automaticOptions(allow: String)
    case methodNotAllowed(allow: String)
    /// A method this server does not know at all (RFC 9110 §9.1 suggests 501 rather than 405).
    case methodNotImplemented
    case notFound

    /// The route whose handler answers, if any.
    var route: Router.Route? {
        switch self {
        case .found(let route, _), .headViaGet(let route, _): route
        default: nil
        }
    }
}

extension Router {
    func resolve(method: HTTPMethod, path: String) -> RouteResolution {
        // CONNECT names an authority, not a path, and asks for a tunnel: a proxy's work, which an origin server
        // does not do (RFC 9110 §9.3.6). A route of that "path" could only be found by accident.
        if method == .connect, !methodsServed.contains(.connect) { return .methodNotImplemented }
        // A method no route serves and no RFC defines is unknown to the server, whatever the path (RFC 9110 §9.1).
        if !Self.standardMethods.contains(method), !methodsServed.contains(method) { return .methodNotImplemented }
        if path == "*" {
            // The server as a whole (RFC 9110 section 9.3.7): what some route of it serves.
            return method == .options ? .automaticOptions(allow: Self.allowValue(methodsServed)) : .notFound
        }
        guard let (node, parameters) = lookup(path), !node.routes.isEmpty else { return .notFound }
        if let route = node.routes[method] {
            return .found(route, parameters: parameters)
        }
        if method == .head, let route = node.routes[.get] {
            return .headViaGet(route, parameters: parameters)
        }
        let allow = Self.allowValue(node)
        if method == .options { return .automaticOptions(allow: allow) }
        return Self.standardMethods.contains(method) ? .methodNotAllowed(allow: allow) : .methodNotImplemented
    }

    /// The template of the routes at `path`, for a request no route's handler answers (`405`, automatic
    /// `OPTIONS`): metrics and the access log then count it under its route rather than under "-".
    func templateText(at path: String) -> String? {
        guard path != "*", let (node, _) = lookup(path) else { return nil }
        return node.routes.values.first?.template.text
    }

    /// The methods of RFC 9110 §9, RFC 5789 and the QUERY draft; any other token is unknown to this server.
    static let standardMethods: Set<HTTPMethod> = [
        .get, .head, .post, .put, .delete, .connect, .options, .trace, .patch, .query,
    ]

    static func allowValue(_ node: Node) -> String { allowValue(node.methodOrder) }

    static func allowValue(_ served: [HTTPMethod]) -> String {
        var methods = served
        if methods.contains(.get) && !methods.contains(.head) { methods.append(.head) }
        if !methods.contains(.options) { methods.append(.options) }
        return methods.map(\.rawValue).joined(separator: ", ")
    }

    /// Walks the trie; literal segments win over a parameter at the same depth, with backtracking.
    private func lookup(_ path: String) -> (Node, [String: String])? {
        if let node = literalPaths[path] { return (node, [:]) }
        let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        // A trailing slash is a different resource: "/a/" does not match "/a". So is an empty segment: RFC 3986
        // does not merge "//", and a proxy rule for "/metrics" must not be passed by "//metrics".
        if path.utf8.count > 1 && path.utf8.last == UInt8(ascii: "/") { return nil }
        var previous: UInt8 = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/") { return nil }
            previous = byte
        }
        var parameters: [String: String] = [:]
        guard let node = match(root, segments[...], &parameters) else { return nil }
        return (node, parameters)
    }

    private func match(
        _ node: Node, _ segments: ArraySlice<Substring.UTF8View.SubSequence>, _ parameters: inout [String: String]
    ) -> Node? {
        guard let segment = segments.first else { return node }
        let text = String(Substring(segment))
        // `/%68ealthz` is `/healthz` (RFC 3986 §6.2.2.2): an escaped unreserved character names the same resource.
        // An escaped reserved one (`%2F`) does not, and stays as it is.
        let literal = segment.contains(UInt8(ascii: "%")) ? PercentDecoding.decodeUnreserved(text) : text
        if let child = node.literals[literal], let found = match(child, segments.dropFirst(), &parameters),
            !found.routes.isEmpty
        {
            return found
        }
        if let (name, child) = node.parameter, let found = match(child, segments.dropFirst(), &parameters),
            !found.routes.isEmpty
        {
            // A parameter whose escapes are not UTF-8 is left out, and the route answers as for a missing one: kept
            // with replacement characters, different refs would name one subject.
            if let value = PercentDecoding.decodeStrictly(text) { parameters[name] = value }
            return found
        }
        return nil
    }
}
