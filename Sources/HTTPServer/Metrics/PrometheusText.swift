/// The Prometheus text exposition format, version 0.0.4.
enum PrometheusText {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    static func render(_ families: [MetricsRegistry.Family]) -> String {
        var out = ""
        for family in families.sorted(by: { $0.name < $1.name }) {
            out += "# HELP \(family.name) \(escapeHelp(family.help))\n"
            out += "# TYPE \(family.name) \(family.kind.rawValue)\n"
            for series in family.series {
                switch series.metric {
                case .counter(let counter):
                    out += "\(family.name)\(labelText(series.labels)) \(counter.value)\n"
                case .gauge(let gauge):
                    out += "\(family.name)\(labelText(series.labels)) \(number(gauge.value))\n"
                case .histogram(let histogram):
                    let snapshot = histogram.snapshot
                    var cumulative: UInt64 = 0
                    for (bound, count) in zip(histogram.upperBounds, snapshot.bucketCounts) {
                        cumulative += count
                        let labels = labelText(series.labels + [("le", number(bound))])
                        out += "\(family.name)_bucket\(labels) \(cumulative)\n"
                    }
                    out += "\(family.name)_bucket\(labelText(series.labels + [("le", "+Inf")])) \(snapshot.count)\n"
                    out += "\(family.name)_sum\(labelText(series.labels)) \(number(snapshot.sum))\n"
                    out += "\(family.name)_count\(labelText(series.labels)) \(snapshot.count)\n"
                }
            }
        }
        return out
    }

    static func labelText(_ labels: [(String, String)]) -> String {
        guard !labels.isEmpty else { return "" }
        return "{" + labels.map { "\($0.0)=\"\(escapeLabel($0.1))\"" }.joined(separator: ",") + "}"
    }

    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    // By Unicode scalar, not by Character: "\r\n" is one Character, which a case "\n" would not match, and its
    // line feed would end the sample line. The format (0.0.4) escapes only these three; a carriage return alone
    // ends nothing and stays as it is.
    private static func escapeLabel(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func escapeHelp(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
