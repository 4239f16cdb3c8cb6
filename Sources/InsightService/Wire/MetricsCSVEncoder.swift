import InsightCore

/// Label metrics as CSV (RFC 4180, header row first). Each group is one row with `day` = `all`, followed by one row
/// per day of its series (only the daily columns filled). An empty cell is a figure that does not apply or is
/// withheld; `suppressed` lists, separated by `;`, the columns of the row withheld by small-cell suppression.
public enum MetricsCSVEncoder {
    private struct Column {
        var name: String
        var pointer: String?
        var value: (GroupMetrics) -> String
    }

    public static func encode(_ report: LabelMetricsReport) -> [UInt8] {
        let columns = summaryColumns()
        var header = ["day"] + report.query.groupBy.map(\.rawValue) + ["mature"]
        header += columns.map(\.name) + ["suppressed"]
        var text = header.map(field).joined(separator: ",") + "\r\n"
        text.reserveCapacity(report.groups.count * 600)
        for group in report.groups {
            let dimensions = group.dimensions.map { field($0.value) }
            let suppressed = Set(group.suppressed)
            var row = ["all"] + dimensions + [String(group.mature)]
            row += columns.map { $0.value(group) }
            row.append(field(columns.filter { $0.pointer.map(suppressed.contains) ?? false }.map(\.name).joined(separator: ";")))
            text += row.joined(separator: ",") + "\r\n"
            for (index, day) in group.series.enumerated() {
                let daily: [String: String] = [
                    "evaluations": number(day.evaluations), "confirmedFraud": number(day.confirmedFraud),
                    "confirmedLegitimate": number(day.confirmedLegitimate),
                ]
                var dayRow = [MetricsJSONEncoder.day(day.day)] + dimensions + [String(day.mature)]
                dayRow += columns.map { daily[$0.name] ?? "" }
                let withheld = ["evaluations", "confirmedFraud", "confirmedLegitimate"].filter { suppressed.contains("/series/\(index)/\($0)") }
                dayRow.append(field(withheld.joined(separator: ";")))
                text += dayRow.joined(separator: ",") + "\r\n"
            }
        }
        return Array(text.utf8)
    }

    private static func summaryColumns() -> [Column] {
        var columns = [Column(name: "evaluations", pointer: "/evaluations") { number($0.evaluations) }]
        for bucket in ConsumptionBucket.allCases {
            columns.append(Column(name: "consumption_\(bucket.rawValue)", pointer: "/consumption/\(bucket.rawValue)") { group in
                group.consumption.first { $0.bucket == bucket }.map { number($0.evaluations) } ?? ""
            })
        }
        columns.append(Column(name: "consumption_late", pointer: "/consumption/late") { number($0.late) })
        columns.append(Column(name: "confirmedFraud", pointer: "/labels/confirmedFraud") { number($0.confirmedFraud) })
        columns.append(Column(name: "confirmedLegitimate", pointer: "/labels/confirmedLegitimate") { number($0.confirmedLegitimate) })
        for level in RiskLevel.allCases {
            let base = "/outcomes/\(level.rawValue)/"
            func figures(_ group: GroupMetrics) -> GroupMetrics.OutcomeFigures? { group.outcomes.first { $0.outcome == level } }
            columns += [
                Column(name: "\(level.rawValue)_evaluations", pointer: base + "evaluations") { figures($0).map { number($0.evaluations) } ?? "" },
                Column(name: "\(level.rawValue)_confirmedFraud", pointer: base + "confirmedFraud") { figures($0).map { number($0.confirmedFraud) } ?? "" },
                Column(name: "\(level.rawValue)_confirmedLegitimate", pointer: base + "confirmedLegitimate") {
                    figures($0).map { number($0.confirmedLegitimate) } ?? ""
                },
                Column(name: "\(level.rawValue)_fraudRate", pointer: base + "fraudRate") { figures($0).map { ratio($0.fraudRate) } ?? "" },
            ]
        }
        columns += [
            Column(name: "recallMediumOrAbove", pointer: "/recall/mediumOrAbove") { ratio($0.recallMediumOrAbove) },
            Column(name: "recallHigh", pointer: "/recall/high") { ratio($0.recallHigh) },
            Column(name: "labelLatencyMedianDays", pointer: "/labelLatencyDays/median") { number($0.latency.medianDays) },
            Column(name: "labelLatencyP90Days", pointer: "/labelLatencyDays/p90") { number($0.latency.p90Days) },
        ]
        return columns
    }

    private static func number(_ value: Int?) -> String { value.map(String.init) ?? "" }
    private static func ratio(_ value: Double?) -> String { value.map { $0.description } ?? "" }

    /// Quotes a field that holds a comma, a quote or a line break, doubling its quotes (RFC 4180).
    static func field(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }) else { return text }
        var quoted = "\""
        for character in text { quoted += character == "\"" ? "\"\"" : String(character) }
        return quoted + "\""
    }
}
