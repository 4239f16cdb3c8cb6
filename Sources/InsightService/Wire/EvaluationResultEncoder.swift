import FoundationEssentials
import InsightCore
import JSONStream

/// Writes evaluation results by hand: the signed payload in a canonical form (keys sorted, no whitespace) so any
/// verifier can re-derive it byte for byte, and the response around it.
enum EvaluationResultEncoder {
    /// The bytes that are signed: requestID, evaluationID, timestamps, environment, category and every insight.
    static func canonicalPayload(_ result: EvaluationResult) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.member("environment", result.environment.rawValue)
        writer.member("evaluationID", result.evaluationID)
        writer.member("generationTimestamp", Timestamp.iso8601(milliseconds: result.generationTimestamp))
        writer.key("insights")
        writer.beginArray()
        for insight in result.insights { writeInsight(insight, to: &writer) }
        writer.endArray()
        writer.member("operationCategory", result.category.rawValue)
        writer.member("requestID", result.requestID)
        writer.member("serverTimestamp", Timestamp.iso8601(milliseconds: result.serverTimestamp))
        writer.endObject()
        return writer.bytes
    }

    static func response(_ result: EvaluationResult, signedPayload: [UInt8]) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024 + signedPayload.count * 4 / 3)
        writer.beginObject()
        writer.member("evaluationID", result.evaluationID)
        writer.member("requestID", result.requestID)
        writer.member("operationCategory", result.category.rawValue)
        writer.member("generationTimestamp", Timestamp.iso8601(milliseconds: result.generationTimestamp))
        writer.member("serverTimestamp", Timestamp.iso8601(milliseconds: result.serverTimestamp))
        writer.member("environment", result.environment.rawValue)
        writer.key("additionalInfo")
        writer.beginObject()
        for (key, value) in result.additionalInfo { writer.member(key, value) }
        writer.endObject()
        writer.key("insights")
        writer.beginArray()
        for insight in result.insights { writeInsight(insight, to: &writer) }
        writer.endArray()
        writer.member("signedPayload", Data(signedPayload).base64EncodedString())
        writer.endObject()
        return writer.bytes
    }

    /// Keys in sorted order: the same fragment serves the canonical payload and the response.
    private static func writeInsight(_ insight: InsightResult, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("insightID", insight.insightID)
        writer.member("insightType", insight.insightType)
        writer.member("isUsingCurrentModel", insight.isUsingCurrentModel)
        writer.member("modelVersion", insight.modelVersion)
        writer.member("newestModelVersion", insight.newestModelVersion)
        writer.key("outcome")
        writer.beginObject()
        switch insight.outcome {
        case .value(let level): writer.member("value", level.rawValue)
        case .error(let code): writer.member("error", code.rawValue)
        }
        writer.endObject()
        writer.key("reasonCodes")
        writer.beginArray()
        for code in insight.reasonCodes { writer.string(code) }
        writer.endArray()
        writer.endObject()
    }
}
