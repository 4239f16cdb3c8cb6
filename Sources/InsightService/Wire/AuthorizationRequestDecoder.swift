import InsightCore
import JSONStream

/// Decodes `PUT /v1/authorization/{subjectRef}` bodies: exactly `{"status": "..."}`. Anything else is
/// `invalid-request` with pointers; no value is echoed.
enum AuthorizationRequestDecoder {
    static func decode(_ body: [UInt8]) throws(ServiceProblem) -> AuthorizationStatus {
        var violations: [ContextViolation] = []
        var status: AuthorizationStatus?
        let seen = try Wire.readObjectBody(body, maximumDepth: 4, violations: &violations, wrongShape: ServiceProblem.invalidRequest) { key, pointer, reader, violations in
            guard key == "status" else {
                violations.append(Wire.unknownField(pointer()))
                try reader.skipValue()
                return
            }
            status = try Wire.readEnumeration(&reader, at: pointer(), violations: &violations)
        }
        if !seen.contains("status") { violations.append(Wire.missing("/status")) }
        guard violations.isEmpty, let status else { throw .invalidRequest(violations) }
        return status
    }
}
