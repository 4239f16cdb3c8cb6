import InsightCore
import JSONStream

/// Label metrics as JSON, in a fixed member order. Withheld counts are `null` and listed in the group's
/// `suppressed` as JSON Pointers relative to the group.
public enum MetricsJSONEncoder {
    public static func encode(_ report: LabelMetricsReport) -> [UInt8] {
        let days = report.groups.reduce(0) { $0 + $1.series.count }
        var writer = JSONWriter(capacity: 1024 + report.groups.count * 2048 + days * 200)
        var fragments = Fragments()
        writer.beginObject()
        writer.member("tenant", report.query.tenant.rawValue)
        writer.member("from", day(report.query.days.lowerBound))
        writer.member("to", day(report.query.days.upperBound))
        writer.key("environments")
        writer.beginArray()
        for environment in DeploymentEnvironment.allCases where report.query.environments.contains(environment) { writer.string(environment.rawValue) }
        writer.endArray()
        writer.key("groupBy")
        writer.beginArray()
        for dimension in report.query.groupBy { writer.string(dimension.rawValue) }
        writer.endArray()
        writer.key("suppression")
        writer.beginObject()
        writer.member("k", report.policy.suppressionK)
        writer.endObject()
        writer.member("maturityDays", report.policy.maturityDays)
        writer.member("generatedAt", Timestamp.iso8601(milliseconds: report.generatedAt))
        writer.key("groups")
        writer.beginArray()
        for group in report.groups { encode(group, into: &writer, fragments: &fragments) }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    private static func encode(_ group: GroupMetrics, into writer: inout JSONWriter, fragments: inout Fragments) {
        writer.beginObject()
        writer.key("group")
        writer.beginObject()
        for dimension in group.dimensions { writer.member(dimension.dimension.rawValue, dimension.value) }
        writer.endObject()
        writer.member("mature", group.mature)
        writer.member("newestDay", day(group.newestDay))
        count("evaluations", group.evaluations, &writer)
        writer.key("consumption")
        writer.beginObject()
        for entry in group.consumption { count(entry.bucket.rawValue, entry.evaluations, &writer) }
        count("late", group.late, &writer)
        writer.endObject()
        writer.key("labels")
        writer.beginObject()
        count("confirmedFraud", group.confirmedFraud, &writer)
        count("confirmedLegitimate", group.confirmedLegitimate, &writer)
        writer.endObject()
        writer.key("outcomes")
        writer.beginObject()
        for outcome in group.outcomes {
            writer.key(outcome.outcome.rawValue)
            writer.beginObject()
            count("evaluations", outcome.evaluations, &writer)
            count("confirmedFraud", outcome.confirmedFraud, &writer)
            count("confirmedLegitimate", outcome.confirmedLegitimate, &writer)
            ratio("fraudRate", outcome.fraudRate, &writer)
            writer.endObject()
        }
        writer.endObject()
        writer.key("recall")
        writer.beginObject()
        ratio("mediumOrAbove", group.recallMediumOrAbove, &writer)
        ratio("high", group.recallHigh, &writer)
        writer.endObject()
        writer.key("labelLatencyDays")
        writer.beginObject()
        count("median", group.latency.medianDays, &writer)
        count("p90", group.latency.p90Days, &writer)
        writer.key("histogram")
        writer.beginArray()
        for bucket in group.latency.histogram {
            writer.beginObject()
            writer.member("days", bucket.bucket.label)
            count("labels", bucket.labels, &writer)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.key("series")
        writer.beginArray()
        for entry in group.series { writer.raw(fragments.day(entry)) }
        writer.endArray()
        writer.key("suppressed")
        writer.beginArray()
        for pointer in group.suppressed { writer.raw(fragments.pointer(pointer)) }
        writer.endArray()
        writer.endObject()
    }

    /// The series and the suppressed pointers are most of a large answer and have a fixed shape: they are written
    /// as ready-made fragments (keys as constant bytes, day strings cached) instead of member by member.
    private struct Fragments {
        private var bytes: [UInt8] = []
        private var dayPrefixes: [Int64: [UInt8]] = [:]

        mutating func day(_ entry: GroupMetrics.Day) -> [UInt8] {
            bytes.removeAll(keepingCapacity: true)
            if let prefix = dayPrefixes[entry.day] {
                bytes += prefix
            } else {
                let prefix = Array("{\"day\":\"\(MetricsJSONEncoder.day(entry.day))\",\"mature\":".utf8)
                dayPrefixes[entry.day] = prefix
                bytes += prefix
            }
            bytes += entry.mature ? Self.trueBytes : Self.falseBytes
            bytes += Self.evaluationsKey
            append(entry.evaluations)
            bytes += Self.fraudKey
            append(entry.confirmedFraud)
            bytes += Self.legitimateKey
            append(entry.confirmedLegitimate)
            bytes.append(UInt8(ascii: "}"))
            return bytes
        }

        /// Pointers are built from fixed names and indexes only: nothing to escape.
        mutating func pointer(_ pointer: String) -> [UInt8] {
            bytes.removeAll(keepingCapacity: true)
            bytes.append(UInt8(ascii: "\""))
            bytes += pointer.utf8
            bytes.append(UInt8(ascii: "\""))
            return bytes
        }

        private mutating func append(_ value: Int?) {
            guard let value else {
                bytes += Self.nullBytes
                return
            }
            if value >= 0 && value < 10 {
                bytes.append(UInt8(48 + value))
            } else {
                bytes += String(value).utf8
            }
        }

        private static let trueBytes = Array("true".utf8)
        private static let falseBytes = Array("false".utf8)
        private static let nullBytes = Array("null".utf8)
        private static let evaluationsKey = Array(",\"evaluations\":".utf8)
        private static let fraudKey = Array(",\"confirmedFraud\":".utf8)
        private static let legitimateKey = Array(",\"confirmedLegitimate\":".utf8)
    }

    private static func count(_ name: String, _ value: Int?, _ writer: inout JSONWriter) {
        writer.key(name)
        if let value { writer.int(value) } else { writer.null() }
    }

    private static func ratio(_ name: String, _ value: Double?, _ writer: inout JSONWriter) {
        writer.key(name)
        if let value { writer.double(value) } else { writer.null() }
    }

    static func day(_ days: Int64) -> String { Timestamp.day(milliseconds: days * 86_400_000) }
}
