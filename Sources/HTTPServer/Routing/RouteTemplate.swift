/// A path template split into segments: `/v1/evaluations/{evaluationID}` is a literal, a literal and a parameter.
struct RouteTemplate: Sendable, Equatable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let text: String
    let segments: [Segment]

    init(_ text: String) {
        self.text = text
        self.segments = text.split(separator: "/", omittingEmptySubsequences: true).map { part in
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
    }

    /// The path a request names to reach this template, when it has no parameters; nil otherwise, and for a literal
    /// holding `%` (a request's escapes are decoded before literals are compared, so its text is not the path).
    var literalPath: String? {
        var path = ""
        for segment in segments {
            guard case .literal(let text) = segment, !text.contains("%") else { return nil }
            path += "/" + text
        }
        return path.isEmpty ? "/" : path
    }
}
