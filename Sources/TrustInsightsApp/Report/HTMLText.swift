/// Text for the HTML report: escaping, and number formats without Foundation's formatters.
enum HTMLText {
    /// Escapes the five characters that matter in HTML text and attribute values.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// `12,345`; `—` for a withheld count.
    static func count(_ value: Int?) -> String {
        guard let value else { return "—" }
        let digits = String(abs(value))
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// `83.3%` (one decimal); `absent` when withheld or undefined.
    static func percent(_ value: Double?, absent: String = "—") -> String {
        guard let value, value.isFinite else { return absent }
        let tenths = Int((value * 1000).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))%"
    }

    /// A number with at most one decimal, for axis labels.
    static func axis(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? count(tenths / 10) : "\(tenths / 10).\(abs(tenths % 10))"
    }

    /// A plain HTML table; cells are escaped here.
    static func table(header: [String], rows: [[String]], caption: String? = nil) -> String {
        var html = "<table>"
        if let caption { html += "<caption>\(escape(caption))</caption>" }
        html += "<thead><tr>" + header.map { "<th>\(escape($0))</th>" }.joined() + "</tr></thead><tbody>"
        for row in rows {
            html += "<tr>" + row.enumerated().map { index, cell in index == 0 ? "<th scope=\"row\">\(escape(cell))</th>" : "<td>\(escape(cell))</td>" }.joined() + "</tr>"
        }
        return html + "</tbody></table>"
    }
}
