/// One rejected feature: where it is in the request body, and why.
public struct FeatureViolation: Sendable, Hashable, CustomStringConvertible {
    /// RFC 6901 pointer into the request body, e.g. `/features/hesitationMillis`.
    public var pointer: String
    public var reason: FeatureViolationReason

    public init(pointer: String, reason: FeatureViolationReason) {
        self.pointer = pointer
        self.reason = reason
    }

    /// Safe to return to the client and to log: the pointer and catalogue facts, never the value.
    public var message: String { "\(pointer): \(reason.message)" }

    public var description: String { message }
}
