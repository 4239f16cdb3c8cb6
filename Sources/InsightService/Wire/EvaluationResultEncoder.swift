import InsightCore
import JSONStream

/// Writes evaluation results by hand: the signed payload in a canonical form (keys sorted, no whitespace) so any
/// verifier can re-derive it byte for byte, and the response around it.
enum EvaluationResultEncoder {
    /// What the signed payload and the response share, written once for both.
    struct SharedParts {
        /// The insights as a JSON array, keys sorted.
        let insights: [UInt8]
        let generationTimestamp: String
        let serverTimestamp: String

        init(_ result: EvaluationResult) {
            insights = EvaluationResultEncoder.insightsArray(result)
            generationTimestamp = Timestamp.iso8601(milliseconds: result.generationTimestamp)
            // The evaluator reads the clock once, so the two are usually one instant, formatted once.
            serverTimestamp = result.serverTimestamp == result.generationTimestamp
                ? generationTimestamp : Timestamp.iso8601(milliseconds: result.serverTimestamp)
        }
    }

    /// The bytes that are signed: requestID, evaluationID, timestamps, environment, category and every insight.
    static func canonicalPayload(_ result: EvaluationResult, shared: SharedParts) -> [UInt8] {
        // Sized for the members around the insights, a long requestID included, so the buffer is allocated once.
        var writer = JSONWriter(capacity: 384 + shared.insights.count)
        writer.beginObject()
        writer.member("environment", result.environment.rawValue)
        writer.member("evaluationID", result.evaluationID)
        writer.member("generationTimestamp", shared.generationTimestamp)
        writer.key("insights")
        writer.raw(shared.insights)
        writer.member("operationCategory", result.category.rawValue)
        writer.member("requestID", result.requestID)
        writer.member("serverTimestamp", shared.serverTimestamp)
        writer.endObject()
        return writer.bytes
    }

    /// The insights as a JSON array, keys sorted: the same bytes serve the canonical payload and the response.
    private static func insightsArray(_ result: EvaluationResult) -> [UInt8] {
        // An insight with its reason codes is 200-300 bytes: sized so the buffer is allocated once.
        var writer = JSONWriter(capacity: 16 + 384 * result.insights.count)
        writer.beginArray()
        for insight in result.insights { writeInsight(insight, to: &writer) }
        writer.endArray()
        return writer.bytes
    }

    static func response(_ result: EvaluationResult, shared: SharedParts, signedPayload: [UInt8]) -> [UInt8] {
        var writer = JSONWriter(capacity: 512 + shared.insights.count + signedPayload.count * 4 / 3)
        writer.beginObject()
        writer.member("evaluationID", result.evaluationID)
        writer.member("requestID", result.requestID)
        writer.member("operationCategory", result.category.rawValue)
        writer.member("generationTimestamp", shared.generationTimestamp)
        writer.member("serverTimestamp", shared.serverTimestamp)
        writer.member("environment", result.environment.rawValue)
        writer.key("additionalInfo")
        writer.beginObject()
        for (key, value) in result.additionalInfo { writer.member(key, value) }
        writer.endObject()
        writer.key("insights")
        writer.raw(shared.insights)
        writer.member("signedPayload", base64: signedPayload)
        writer.endObject()
        return writer.bytes
    }

    /// Keys in sorted order, as the canonical payload needs them.
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
