/// One feature value as the request decoder found it, before the catalogue checks it.
/// A wrong JSON type keeps only the name of that type, never its content.
public enum FeatureInput: Sendable, Hashable {
    case number(Double)
    case boolean(Bool)
    /// JSON `null`: the same as absent for an optional feature.
    case null
    /// A JSON value of another kind: "string", "array" or "object". The content is not kept.
    case wrongType(String)

    /// The JSON kind of this input, for messages ("number", "boolean", "null", "string", ...).
    public var kindName: String {
        switch self {
        case .number: "number"
        case .boolean: "boolean"
        case .null: "null"
        case .wrongType(let kind): kind
        }
    }
}
