import InsightCore
import JSONStream

/// Decodes `POST /v1/evaluations/{evaluationID}/consumption` bodies: `status` and, optionally, `insightIDsUsed` (left
/// out or `null`, none: the public API's `reportConsumption(_:)` takes only the status, and a client mirroring it
/// sent no list and got 400, names probe, 6 December).
/// Unknown, duplicate, mistyped and missing fields are `invalid-request` with their pointers; no value is echoed.
enum ConsumptionRequestDecoder {
    static let maximumInsightIDLength = 64

    /// A body whose members have problems, with the insightIDs of it that could be read: the route checks those
    /// against the evaluation as well, so that one answer names every problem.
    struct Invalid: Error, Equatable {
        var violations: [ContextViolation]
        /// Each insightID that could be read, with its index in `insightIDsUsed`; nil when the list was not an
        /// array, or held more than an evaluation's insights.
        var insightIDs: [IndexedInsightID]?
    }

    struct IndexedInsightID: Equatable {
        var index: Int
        var id: String
    }

    static func decode(_ body: [UInt8]) throws(ServiceProblem) -> ConsumptionReport {
        switch try decodeCollecting(body) {
        case .success(let report): return report
        case .failure(let invalid): throw .invalidRequest(invalid.violations)
        }
    }

    /// Throws only for a body that is not a JSON object at all (or nests too deep), which has no members to name.
    static func decodeCollecting(_ body: [UInt8]) throws(ServiceProblem) -> Result<ConsumptionReport, Invalid> {
        var violations: [ContextViolation] = []
        var status: ConsumptionStatus?
        var insightIDs: [String]?
        var readable: [IndexedInsightID]?
        let seen = try Wire.readObjectBody(body, maximumDepth: 4, violations: &violations, wrongShape: ServiceProblem.invalidRequest) { key, pointer, reader, violations in
            switch key {
            case "status":
                status = try Wire.readEnumeration(&reader, at: pointer(), violations: &violations)
            case "insightIDsUsed":
                if try reader.peekKind() == .null {
                    try reader.readNull()
                    insightIDs = []
                } else {
                    var items: [IndexedInsightID] = []
                    insightIDs = try decodeInsightIDs(&reader, pointer: pointer(), violations: &violations, readable: &items)
                    readable = insightIDs == nil && items.isEmpty ? nil : items
                }
            default:
                violations.append(Wire.unknownField(pointer()))
                try reader.skipValue()
            }
        }
        if !seen.contains("status") { violations.append(Wire.missing("/status")) }
        if !seen.contains("insightIDsUsed") { insightIDs = [] }
        guard violations.isEmpty, let status, let insightIDs else {
            return .failure(Invalid(violations: violations, insightIDs: readable))
        }
        return .success(ConsumptionReport(status: status, insightIDsUsed: insightIDs))
    }

    private static func decodeInsightIDs(
        _ reader: inout JSONReader, pointer: String, violations: inout [ContextViolation], readable: inout [IndexedInsightID]
    ) throws -> [String]? {
        let kind = try reader.peekKind()
        guard kind == .array else {
            violations.append(Wire.wrongType(pointer, expected: "an array of insightIDs", received: kind))
            try reader.skipValue()
            return nil
        }
        var result: [String] = []
        var tooMany = false
        let violationsBefore = violations.count
        try reader.readArray { index, reader in
            // An evaluation has at most this many insights, so a longer list cannot be valid.
            guard index < Evaluator.maximumInsights else {
                tooMany = true
                try reader.skipValue()
                return
            }
            if let id = try Wire.readString(&reader, at: pointer + "/" + String(index), maximumLength: maximumInsightIDLength, violations: &violations) {
                let canonical = Identifier.canonical(id) ?? id
                result.append(canonical)
                readable.append(IndexedInsightID(index: index, id: canonical))
            }
        }
        if tooMany {
            // As with `/features` over its limit: the one count problem, not the first items' problems and silence
            // about the rest, which would make the answer depend on where the bad items sit.
            violations.removeSubrange(violationsBefore...)
            violations.append(Wire.invalidValue(pointer, "must hold at most \(Evaluator.maximumInsights) insightIDs"))
            readable.removeAll()
            return nil
        }
        return result
    }
}
