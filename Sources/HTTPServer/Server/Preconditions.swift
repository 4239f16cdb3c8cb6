/// The preconditions of RFC 9110 §13 for a server that sends no validators: no route answers with `ETag` or
/// `Last-Modified`. An entity tag in `If-Match` therefore never matches, `*` matches whenever the target has a
/// current representation, and the date conditions are ignored, as §13.1.3 and §13.1.4 direct when no
/// modification date is available. A client guarding a change with `If-Match` is told 412 rather than having the
/// change applied unchecked (§13.1.1: the method MUST NOT be performed when the condition is false).
enum Preconditions {
    enum Outcome: Equatable {
        case proceed
        /// 304, for GET and HEAD only (§13.1.2).
        case notModified
        /// 412.
        case failed
    }

    /// Whether the request carries a condition this server evaluates; checked first, so a request without one
    /// (nearly all) costs two field lookups.
    static func applies(to headers: HTTPFields) -> Bool {
        headers.contains("If-Match") || headers.contains("If-None-Match")
    }

    /// §13.2.2, steps 1 and 3 (steps 2 and 4 are the ignored date conditions). `hasRepresentation`: whether the
    /// target resource has a current representation, which for this server means that its path answers GET.
    static func evaluate(_ headers: HTTPFields, method: HTTPMethod, hasRepresentation: Bool) -> Outcome {
        if headers.contains("If-Match") {
            // `*` must stand alone: a list holding it is not the field's syntax, and no list can match.
            guard hasRepresentation, isAsterisk(headers.values(for: "If-Match")) else { return .failed }
        }
        if headers.contains("If-None-Match"), hasRepresentation, isAsterisk(headers.values(for: "If-None-Match")) {
            return method == .get || method == .head ? .notModified : .failed
        }
        // A list of entity tags in If-None-Match matches none of ours, so its condition holds.
        return .proceed
    }

    private static func isAsterisk(_ values: [String]) -> Bool {
        values.count == 1 && values[0][...].trimmingWhitespace() == "*"
    }

    static let failure = HTTPError(
        .preconditionFailed, slug: "precondition-failed",
        detail: "This server sends no entity tags, so If-Match names none it holds, and If-None-Match: * finds a current representation.")
}
