/// Every problem found in one request's features, in the order the request listed them, followed by missing
/// required features in catalogue order.
public struct FeatureValidationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var violations: [FeatureViolation]

    public init(violations: [FeatureViolation]) {
        self.violations = violations
    }

    public var description: String {
        violations.map(\.message).joined(separator: "; ")
    }
}
