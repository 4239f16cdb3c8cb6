import InsightCore
import JSONStream

/// Answers of the feedback routes, written in a fixed member order.
enum FeedbackEncoders {
    static func consumption(_ record: ConsumptionRecord) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.member("evaluationID", record.evaluationID)
        writer.member("status", record.report.status.rawValue)
        writer.key("insightIDsUsed")
        writer.beginArray()
        for id in record.report.insightIDsUsed { writer.string(id) }
        writer.endArray()
        writer.member("receivedAt", Timestamp.iso8601(milliseconds: record.receivedAt))
        writer.member("late", record.late)
        writer.endObject()
        return writer.bytes
    }

    static func labelResults(_ results: [LabelItemResult]) -> [UInt8] {
        var writer = JSONWriter(capacity: 16 + results.count * 80)
        writer.beginObject()
        writer.key("results")
        writer.beginArray()
        for result in results {
            writer.beginObject()
            writer.member("insightID", result.insightID)
            writer.member("result", result.outcome.rawValue)
            if let reason = result.reason { writer.member("reason", reason) }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }
}
