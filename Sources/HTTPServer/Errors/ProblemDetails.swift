import FoundationEssentials

/// An RFC 9457 problem document, sent as `application/problem+json`.
public struct ProblemDetails: Sendable, Codable, Equatable {
    /// One invalid input field, located by a JSON Pointer (RFC 6901) such as `/features/activeCall` into the body,
    /// or, where `location` is set, by the name of a query or path parameter or a header field in `pointer`.
    public struct FieldError: Sendable, Codable, Equatable {
        /// Where a field outside the body is: sent as the member `in`, as OpenAPI names a parameter's place. Absent
        /// for the body, so that `pointer` is an RFC 6901 pointer exactly when `in` is absent (HTTP probe,
        /// 7 December: a parameter's name in `pointer` read as a pointer, and `""` for an unnamed query parameter as
        /// the whole body).
        public enum Location: String, Sendable, Codable {
            case query, path, header
        }

        public var pointer: String
        public var detail: String
        public var location: Location?

        public init(pointer: String, detail: String, location: Location? = nil) {
            self.pointer = pointer
            self.detail = detail
            self.location = location
        }

        private enum CodingKeys: String, CodingKey {
            case pointer, detail
            case location = "in"
        }
    }

    public static let typeBase = "https://trust-insights.dev/problems/"

    public var type: String
    public var title: String
    public var status: Int
    public var detail: String?
    public var instance: String?
    public var errors: [FieldError]?
    /// Extension members, written at the top level of the document as RFC 9457 §3.2 asks.
    public var extensions: [String: String]?

    public init(
        type: String, title: String, status: Int, detail: String? = nil, instance: String? = nil,
        errors: [FieldError]? = nil, extensions: [String: String]? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
        self.errors = errors
        self.extensions = extensions
    }

    /// A problem whose type is `https://trust-insights.dev/problems/<slug>`.
    public init(slug: String, status: HTTPStatus, title: String? = nil, detail: String? = nil) {
        self.init(type: Self.typeBase + slug, title: title ?? status.reasonPhrase, status: status.code, detail: detail)
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private static let memberNames: Set<String> = ["type", "title", "status", "detail", "instance", "errors"]

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(type, forKey: Key("type"))
        try container.encode(title, forKey: Key("title"))
        try container.encode(status, forKey: Key("status"))
        try container.encodeIfPresent(detail, forKey: Key("detail"))
        try container.encodeIfPresent(instance, forKey: Key("instance"))
        try container.encodeIfPresent(errors, forKey: Key("errors"))
        for (name, value) in extensions ?? [:] where !Self.memberNames.contains(name) {
            try container.encode(value, forKey: Key(name))
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        type = try container.decodeIfPresent(String.self, forKey: Key("type")) ?? "about:blank"
        title = try container.decode(String.self, forKey: Key("title"))
        status = try container.decode(Int.self, forKey: Key("status"))
        detail = try container.decodeIfPresent(String.self, forKey: Key("detail"))
        instance = try container.decodeIfPresent(String.self, forKey: Key("instance"))
        errors = try container.decodeIfPresent([FieldError].self, forKey: Key("errors"))
        var extras: [String: String] = [:]
        for key in container.allKeys where !Self.memberNames.contains(key.stringValue) {
            if let value = try? container.decode(String.self, forKey: key) {
                extras[key.stringValue] = value
            }
        }
        extensions = extras.isEmpty ? nil : extras
    }
}
