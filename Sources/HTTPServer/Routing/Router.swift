/// Routes by method and path template, and holds the middleware chain that wraps every routed handler.
public struct Router: Sendable {
    /// A class, immutable: a resolved route is passed along several times per request, and one reference
    /// count is cheaper than copying its template, options and handler each time.
    final class Route: Sendable {
        let template: RouteTemplate
        let options: RouteOptions
        let handler: HTTPHandler

        init(template: RouteTemplate, options: RouteOptions, handler: @escaping HTTPHandler) {
            self.template = template
            self.options = options
            self.handler = handler
        }
    }

    /// A node of the path trie: literal children first, then at most one parameter child.
    final class Node: @unchecked Sendable {
        // Mutated only while the router is built (before it is shared); read-only afterwards.
        var literals: [String: Node] = [:]
        var parameter: (name: String, node: Node)?
        var routes: [HTTPMethod: Route] = [:]
        var methodOrder: [HTTPMethod] = []

        func copy() -> Node {
            let clone = Node()
            clone.literals = literals.mapValues { $0.copy() }
            clone.parameter = parameter.map { (name: $0.name, node: $0.node.copy()) }
            clone.routes = routes
            clone.methodOrder = methodOrder
            return clone
        }
    }

    var root = Node()
    /// The nodes of templates without parameters, by their path: most requests name one of these exactly, and
    /// one hash of the path is cheaper than splitting it and walking the trie segment by segment.
    private(set) var literalPaths: [String: Node] = [:]
    private(set) var middlewares: [any HTTPMiddleware] = []
    /// Every method some route serves, in the order first registered: the `Allow` of `OPTIONS *`.
    private(set) var methodsServed: [HTTPMethod] = []

    public init() {}

    /// Registers `handler` for `method` on `template`; a later registration of the same pair replaces it.
    public mutating func add(
        _ method: HTTPMethod, _ template: String, options: RouteOptions = RouteOptions(),
        handler: @escaping HTTPHandler
    ) {
        // Copy-on-write by hand: the trie is a class so that lookups do not copy, but a Router is a value.
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        let parsed = RouteTemplate(template)
        var node = root
        for segment in parsed.segments {
            switch segment {
            case .literal(let text):
                if let child = node.literals[text] {
                    node = child
                } else {
                    let child = Node()
                    node.literals[text] = child
                    node = child
                }
            case .parameter(let name):
                if let existing = node.parameter {
                    node = existing.node
                } else {
                    let child = Node()
                    node.parameter = (name: name, node: child)
                    node = child
                }
            }
        }
        if node.routes[method] == nil { node.methodOrder.append(method) }
        if !methodsServed.contains(method) { methodsServed.append(method) }
        node.routes[method] = Route(template: parsed, options: options, handler: handler)
        indexLiteralPaths(adding: parsed)
    }

    /// Points `literalPaths` at the current trie: after a copy-on-write above, its nodes are the copies.
    private mutating func indexLiteralPaths(adding template: RouteTemplate) {
        var paths = Array(literalPaths.keys)
        if let path = template.literalPath { paths.append(path) }
        literalPaths = [:]
        for path in paths {
            var node = root
            for segment in path.split(separator: "/") { node = node.literals[String(segment)]! }
            literalPaths[path] = node
        }
    }

    public mutating func use(_ middleware: any HTTPMiddleware) {
        middlewares.append(middleware)
    }
}
