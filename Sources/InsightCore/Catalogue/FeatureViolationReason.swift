/// Why one feature of a request was rejected. Cases carry catalogue facts (types, ranges, codes), never the
/// value the client sent.
public enum FeatureViolationReason: Sendable, Hashable {
    /// The name is not in this category's catalogue.
    case unknownFeature
    /// An unknown name that is not repeated back (see `JSONPointer.isEchoable`); the pointer is `/features`.
    case unknownUnnamedFeature
    /// The JSON kind does not fit the feature's type; `received` is the JSON kind ("string", "boolean", ...).
    case wrongType(expected: FeatureType, received: String)
    /// The value lies outside the declared range.
    case outOfRange(minimum: Double, maximum: Double, unit: String)
    /// The number is NaN or infinite.
    case notFinite
    /// A count, flag or band code with a fractional part; the rest says what the feature takes, for the message
    /// ("must be an integer" alone invited any integer, where a flag takes 0 or 1 and a band its codes).
    case notAnInteger(expected: FeatureType, minimum: Double, maximum: Double, bands: [Int] = [])
    /// An integer that is not one of the band's codes.
    case notAllowedBand(allowed: [Int])
    /// A required client feature is absent or null.
    case missingRequired
    /// The feature is computed by the service; clients must not send it.
    case computedByService
    /// The same name appears more than once.
    case duplicateFeature
    /// A name that is not repeated back appears more than once; the pointer is `/features`.
    case duplicateUnnamedFeature

    /// A stable machine-readable code for problem documents.
    public var code: String {
        switch self {
        case .unknownFeature, .unknownUnnamedFeature: "unknownFeature"
        case .wrongType: "wrongType"
        case .outOfRange: "outOfRange"
        case .notFinite: "notFinite"
        case .notAnInteger: "notAnInteger"
        case .notAllowedBand: "notAllowedBand"
        case .missingRequired: "missingRequired"
        case .computedByService: "computedByService"
        case .duplicateFeature, .duplicateUnnamedFeature: "duplicateFeature"
        }
    }

    /// A human sentence built from catalogue facts only, so that it can be returned and logged safely.
    public var message: String {
        switch self {
        case .unknownFeature:
            return "is not a feature of this operation category"
        case .unknownUnnamedFeature:
            return "holds a name that is not a feature of this operation category (\(JSONPointer.unrepeatedNameReason))"
        case .wrongType(let expected, let received):
            let wanted: String
            switch expected {
            case .number: wanted = "a number"
            case .count: wanted = "a non-negative integer"
            case .flag: wanted = "true, false, 0 or 1"
            case .band: wanted = "an integer band code"
            }
            return "expected \(wanted), received \(received == "null" ? "null" : "a value of type \(received)")"
        case .outOfRange(0, 1, "boolean"):
            // A flag's range is its two values; "between 0 and 1" would invite 0.5.
            return "must be true, false, 0 or 1"
        case .outOfRange(let minimum, let maximum, let unit):
            // A unit of measure reads after the number ("600000 milliseconds"); a ratio is no unit of measure.
            let suffix = switch unit {
            case "", "boolean", "count", "band": ""
            case "ratio": " (a ratio)"
            default: " \(unit)"
            }
            return "must be between \(NumberText.render(minimum)) and \(NumberText.render(maximum))\(suffix)"
        case .notFinite:
            // Also a number written with more digits than a double holds (1e400, 400 digits of integer).
            return "must be a finite number (at most about 1.8e308 in magnitude)"
        case .notAnInteger(.flag, _, _, _):
            return "must be true, false, 0 or 1"
        case .notAnInteger(.band, _, _, let bands):
            return "must be one of the band codes \(bands.map(String.init).joined(separator: ", "))"
        case .notAnInteger(_, let minimum, let maximum, _):
            return "must be a whole number between \(NumberText.render(minimum)) and \(NumberText.render(maximum))"
        case .notAllowedBand(let allowed):
            return "must be one of the band codes \(allowed.map(String.init).joined(separator: ", "))"
        case .missingRequired:
            return "is required for this operation category"
        case .computedByService:
            return "is computed by the service and must not be sent"
        case .duplicateFeature:
            return "appears more than once"
        case .duplicateUnnamedFeature:
            return "holds a name more than once (\(JSONPointer.unrepeatedNameReason))"
        }
    }
}
