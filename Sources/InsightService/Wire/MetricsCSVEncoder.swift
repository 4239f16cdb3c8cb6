import InsightCore

/// Label metrics as CSV (RFC 4180, header row first). Each group is one row with `day` = `all`, followed by one row
/// per day of its series (only the daily columns filled). An empty cell is a figure that does not apply or is
/// withheld; `suppressed` lists, separated by `;`, the columns of the row withheld by small-cell suppression.
public enum MetricsCSVEncoder {
    /// The summary columns after `day`, the dimensions and `mature`, each with the JSON Pointer it mirrors.
    static let columns: [(name: String, pointer: String)] = {
        var columns = [("evaluations", "/evaluations")]
        columns += ConsumptionBucket.allCases.map { ("consumption_\($0.rawValue)", "/consumption/\($0.rawValue)") }
        columns += [("consumption_late", "/consumption/late"), ("confirmedFraud", "/labels/confirmedFraud"),
                    ("confirmedLegitimate", "/labels/confirmedLegitimate")]
        for level in RiskLevel.allCases {
            columns += ["evaluations", "confirmedFraud", "confirmedLegitimate", "fraudRate"].map {
                ("\(level.rawValue)_\($0)", "/outcomes/\(level.rawValue)/\($0)")
            }
        }
        columns += [("recallMediumOrAbove", "/recall/mediumOrAbove"), ("recallHigh", "/recall/high"),
                    ("labelLatencyMedianDays", "/labelLatencyDays/median"), ("labelLatencyP90Days", "/labelLatencyDays/p90")]
        return columns
    }()

    public static func encode(_ report: LabelMetricsReport) -> [UInt8] {
        let dailyRows = report.groups.reduce(0) { $0 + $1.series.count }
        var writer = CSVWriter(capacity: 1024 + report.groups.count * 400 + dailyRows * 90)
        writer.field("day")
        for dimension in report.query.groupBy { writer.field(dimension.rawValue) }
        writer.field("mature")
        for column in columns { writer.field(column.name) }
        writer.field("suppressed")
        writer.endRow()
        for group in report.groups {
            summaryRow(group, into: &writer)
            for day in group.series { dayRow(day, group: group, into: &writer) }
        }
        return writer.bytes
    }

    private static func summaryRow(_ group: GroupMetrics, into writer: inout CSVWriter) {
        writer.field("all")
        for dimension in group.dimensions { writer.field(dimension.value) }
        writer.bool(group.mature)
        writer.count(group.evaluations)
        for bucket in ConsumptionBucket.allCases {
            if let entry = group.consumption.first(where: { $0.bucket == bucket }) { writer.count(entry.evaluations) } else { writer.empty() }
        }
        writer.count(group.late)
        writer.count(group.confirmedFraud)
        writer.count(group.confirmedLegitimate)
        for level in RiskLevel.allCases {
            if let figures = group.outcomes.first(where: { $0.outcome == level }) {
                writer.count(figures.evaluations)
                writer.count(figures.confirmedFraud)
                writer.count(figures.confirmedLegitimate)
                writer.ratio(figures.fraudRate)
            } else {
                writer.empty(4)
            }
        }
        writer.ratio(group.recallMediumOrAbove)
        writer.ratio(group.recallHigh)
        writer.count(group.latency.medianDays)
        writer.count(group.latency.p90Days)
        // Series pointers (`/series/...`) belong to the daily rows.
        let withheld = Set(group.suppressed.filter { !$0.utf8.starts(with: "/se".utf8) })
        writer.field(columns.filter { withheld.contains($0.pointer) }.map(\.name).joined(separator: ";"))
        writer.endRow()
    }

    /// Every day of a series has counts, so a nil one is a withheld one.
    private static func dayRow(_ day: GroupMetrics.Day, group: GroupMetrics, into writer: inout CSVWriter) {
        writer.field(MetricsJSONEncoder.day(day.day))
        for dimension in group.dimensions { writer.field(dimension.value) }
        writer.bool(day.mature)
        writer.count(day.evaluations)
        writer.empty(ConsumptionBucket.allCases.count + 1)
        writer.count(day.confirmedFraud)
        writer.count(day.confirmedLegitimate)
        writer.empty(columns.count - ConsumptionBucket.allCases.count - 4)
        var withheld: [String] = []
        if day.evaluations == nil { withheld.append("evaluations") }
        if day.confirmedFraud == nil { withheld.append("confirmedFraud") }
        if day.confirmedLegitimate == nil { withheld.append("confirmedLegitimate") }
        writer.field(withheld.joined(separator: ";"))
        writer.endRow()
    }
}
