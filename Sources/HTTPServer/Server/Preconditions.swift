/// The preconditions of RFC 9110 §13. A route may answer a safe method with a strong `ETag` (the key set does);
/// no route sends `Last-Modified`. An entity tag in `If-Match` matches only that answer's tag, by the strong
/// comparison; one in `If-None-Match` by the weak comparison (§8.8.3.2); `*` matches whenever the target has a
/// current representation; the date conditions are ignored, as §13.1.3 and §13.1.4 direct when no modification
/// date is available. A client guarding a change with `If-Match` is told 412 rather than having the change applied
/// unchecked (§13.1.1: the method MUST NOT be performed when the condition is false).
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
    /// `entityTag`: the `ETag` of that representation, when the answer carries one.
    static func evaluate(_ headers: HTTPFields, method: HTTPMethod, hasRepresentation: Bool, entityTag: String? = nil) -> Outcome {
        let current = entityTag.flatMap(EntityTag.init(field:))
        if headers.contains("If-Match") {
            let values = headers.values(for: "If-Match")
            // `*` must stand alone: a list holding it is not the field's syntax, and no list can match.
            let holds = isAsterisk(values)
                ? hasRepresentation
                : hasRepresentation && current.map { current in EntityTag.list(values)?.contains { $0.matchesStrongly(current) } == true } == true
            guard holds else { return .failed }
        }
        if headers.contains("If-None-Match"), hasRepresentation {
            let values = headers.values(for: "If-None-Match")
            let matches = isAsterisk(values)
                || current.map { current in EntityTag.list(values)?.contains { $0.matchesWeakly(current) } == true } == true
            if matches { return method == .get || method == .head ? .notModified : .failed }
        }
        return .proceed
    }

    private static func isAsterisk(_ values: [String]) -> Bool {
        values.count == 1 && values[0][...].trimmingWhitespace() == "*"
    }

    static let failure = HTTPError(
        .preconditionFailed, slug: "precondition-failed",
        detail: "If-Match names no entity tag the target's current representation has (most answers carry none), or If-None-Match finds the current representation.")
}

/// An entity tag (RFC 9110 §8.8.3): opaque characters between double quotes, `W/` before a weak one.
struct EntityTag: Equatable {
    var isWeak: Bool
    var opaque: Substring

    /// One tag filling the whole field value (an `ETag` a route sets); nil when it is not one.
    init?(field: String) {
        var scanner = Substring(field).trimmingWhitespace()[...]
        guard let tag = Self.scan(&scanner), scanner.isEmpty else { return nil }
        self = tag
    }

    private init(isWeak: Bool, opaque: Substring) {
        self.isWeak = isWeak
        self.opaque = opaque
    }

    /// §13.1.1 and §13.1.2: `#entity-tag` over every line of the field; nil when any part is not that syntax. A
    /// malformed field matches nothing, wherever its fault and in whatever order its lines came, so it never makes
    /// a representation look unchanged (`If-None-Match`) nor lets a guarded change through (`If-Match`).
    static func list(_ values: [String]) -> [EntityTag]? {
        var tags: [EntityTag] = []
        for value in values {
            var rest = Substring(value)
            while true {
                rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
                if rest.isEmpty { break }
                guard let tag = scan(&rest) else { return nil }
                tags.append(tag)
                rest = rest.drop { $0 == " " || $0 == "\t" }
                guard rest.isEmpty || rest.first == "," else { return nil }
            }
        }
        return tags
    }

    /// Reads `[W/] DQUOTE *etagc DQUOTE` from the front of `text`.
    private static func scan(_ text: inout Substring) -> EntityTag? {
        var rest = text
        let isWeak = rest.hasPrefix("W/")
        if isWeak { rest = rest.dropFirst(2) }
        guard rest.first == "\"" else { return nil }
        rest = rest.dropFirst()
        // etagc: %x21 / %x23-7E / obs-text, that is any visible character or obs-text but DQUOTE.
        guard let end = rest.utf8.firstIndex(where: { !($0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80) }),
              rest.utf8[end] == UInt8(ascii: "\"")
        else { return nil }
        let opaque = rest[..<end]
        text = rest[end...].dropFirst()
        return EntityTag(isWeak: isWeak, opaque: opaque)
    }

    func matchesStrongly(_ other: EntityTag) -> Bool { !isWeak && !other.isWeak && opaque == other.opaque }
    func matchesWeakly(_ other: EntityTag) -> Bool { opaque == other.opaque }
}
