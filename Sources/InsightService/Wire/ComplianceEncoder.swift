import InsightCore
import JSONStream

/// The body of `GET /v1/compliance`, in a fixed member order.
enum ComplianceEncoder {
    static func encode(
        _ figures: ComplianceFigures, keyID: String, limit: RateLimit, baseLimit: RateLimit, policy: CompliancePolicy,
        deadlineMilliseconds: Int64, now: Int64
    ) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.member("keyID", keyID)
        writer.member("asOf", Timestamp.iso8601(milliseconds: now))
        writer.member("standing", figures.standing.rawValue)
        writer.member("windowSeconds", policy.windowSeconds)
        // Rounded down for a configured fraction: the side on which an app that keeps to it is never late.
        writer.member("deadlineSeconds", Int(deadlineMilliseconds / 1000))
        writer.member("evaluationsJudged", figures.judged)
        writer.member("reportedOnTime", figures.reportedOnTime)
        writer.member("reportedLate", figures.reportedLate)
        writer.member("missing", figures.missing)
        writer.member("missingShare", figures.missingShare)
        writer.member("threshold", policy.threshold)
        writer.member("minimumJudged", policy.minimumJudged)
        if let since = figures.nonCompliantSince {
            writer.member("nonCompliantSince", Timestamp.iso8601(milliseconds: since))
        }
        if let suspendsAt = figures.suspendsAt {
            writer.member("suspendsAt", Timestamp.iso8601(milliseconds: suspendsAt))
        }
        writer.key("rateLimit")
        writer.beginObject()
        writer.member("ratePerSecond", limit.ratePerSecond)
        writer.member("burst", limit.burst)
        writer.member("baseRatePerSecond", baseLimit.ratePerSecond)
        writer.member("baseBurst", baseLimit.burst)
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }
}
