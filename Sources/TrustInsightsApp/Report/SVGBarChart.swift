/// A vertical bar chart as inline SVG (no script, no external asset): categories along x, one or more series drawn
/// side by side or stacked. A nil value is not drawn as zero: withheld, it is a short hatched bar; not applicable
/// (`absence`), it is marked `n/a`.
struct SVGBarChart {
    /// What a nil value stands for: a figure withheld by suppression, or (with suppression off) a ratio with nothing
    /// to divide, which no bar would show truly.
    enum Absence {
        case withheld
        case notApplicable
    }

    struct Series {
        var name: String
        var color: String
        var values: [Double?]
    }

    enum Layout { case grouped, stacked }

    var id: String
    var title: String
    var categories: [String]
    var series: [Series]
    var layout: Layout = .grouped
    /// nil when no value can be absent (counts with suppression off): the legend then names no mark for one.
    var absence: Absence? = .withheld
    /// Fixed top of the y axis (1 for ratios); nil fits the data.
    var yMaximum: Double?
    var format: (Double) -> String = { HTMLText.axis($0) }
    var width = 880
    var height = 300

    private let left = 60.0, right = 12.0, top = 34.0, bottom = 64.0

    func render() -> String {
        let plotWidth = Double(width) - left - right
        let plotHeight = Double(height) - top - bottom
        let top = yMaximum ?? Self.niceCeiling(dataMaximum)
        let scale = top > 0 ? plotHeight / top : 0
        let hatch = "hatch-\(id)"
        var svg = """
            <svg id="\(HTMLText.escape(id))" class="chart" xmlns="http://www.w3.org/2000/svg" role="img" \
            width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" aria-labelledby="\(HTMLText.escape(id))-title">\
            <title id="\(HTMLText.escape(id))-title">\(HTMLText.escape(title))</title>\
            <defs><pattern id="\(hatch)" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">\
            <rect width="6" height="6" fill="#fff"/><line x1="0" y1="0" x2="0" y2="6" stroke="#888" stroke-width="2"/></pattern></defs>
            """
        // Grid and y axis.
        let intervals = yMaximum == nil ? Self.wholeIntervals(top) : 4
        for tick in 0...intervals {
            let value = top * Double(tick) / Double(intervals)
            let y = self.top + plotHeight - value * scale
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y))\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y + 4))\" text-anchor=\"end\" class=\"tick\">\(HTMLText.escape(format(value)))</text>"
        }
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(self.top + plotHeight))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(self.top + plotHeight))\" stroke=\"#444\"/>"
        // Bars.
        let band = categories.isEmpty ? plotWidth : plotWidth / Double(categories.count)
        let labelEvery = max(1, (categories.count + 11) / 12)
        for (index, category) in categories.enumerated() {
            let x0 = left + band * Double(index)
            let inner = band * 0.8
            var stackTop = self.top + plotHeight
            var withheld = false
            for (seriesIndex, series) in series.enumerated() {
                let value = index < series.values.count ? series.values[index] : nil
                let barWidth = layout == .stacked ? inner : inner / Double(max(1, self.series.count))
                let x = layout == .stacked ? x0 + band * 0.1 : x0 + band * 0.1 + barWidth * Double(seriesIndex)
                guard let value else {
                    if absence == .notApplicable {
                        if layout == .grouped {
                            svg += "<text x=\"\(f(x + barWidth / 2))\" y=\"\(f(self.top + plotHeight - 3))\" text-anchor=\"middle\" class=\"tick\">"
                                + "n/a<title>\(HTMLText.escape("\(category) · \(series.name): not applicable, nothing to divide"))</title></text>"
                        }
                        continue
                    }
                    withheld = true
                    if layout == .grouped {
                        svg += bar(x: x, y: self.top + plotHeight - 6, width: barWidth, height: 6, fill: "url(#\(hatch))",
                                   tooltip: "\(category) · \(series.name): withheld")
                    }
                    continue
                }
                let height = max(0, value * scale)
                let y = (layout == .stacked ? stackTop : self.top + plotHeight) - height
                svg += bar(x: x, y: y, width: barWidth, height: height, fill: series.color, tooltip: "\(category) · \(series.name): \(format(value))")
                if layout == .stacked { stackTop = y }
            }
            if withheld, layout == .stacked {
                svg += bar(x: x0 + band * 0.1, y: stackTop - 6, width: inner, height: 6, fill: "url(#\(hatch))", tooltip: "\(category): some values withheld")
            }
            if index % labelEvery == 0 {
                let x = f(x0 + band / 2)
                let y = f(self.top + plotHeight + 14)
                // Labels wider than their band lean, so that neighbours do not overlap.
                let lean = Double(category.count) * 5.5 > band * Double(labelEvery) ? " transform=\"rotate(-20 \(x) \(y))\"" : ""
                svg += "<text x=\"\(x)\" y=\"\(y)\" text-anchor=\"\(lean.isEmpty ? "middle" : "end")\" class=\"tick\"\(lean)>\(HTMLText.escape(category))</text>"
            }
        }
        // Legend.
        var legendX = left
        for series in series {
            svg += "<rect x=\"\(f(legendX))\" y=\"10\" width=\"12\" height=\"12\" fill=\"\(series.color)\"/>"
            svg += "<text x=\"\(f(legendX + 16))\" y=\"20\" class=\"legend\">\(HTMLText.escape(series.name))</text>"
            legendX += 28 + Double(series.name.count) * 7
        }
        switch absence {
        case nil:
            break
        case .withheld:
            svg += "<rect x=\"\(f(legendX))\" y=\"10\" width=\"12\" height=\"12\" fill=\"url(#\(hatch))\" stroke=\"#888\"/>"
            svg += "<text x=\"\(f(legendX + 16))\" y=\"20\" class=\"legend\">withheld</text>"
        case .notApplicable:
            svg += "<text x=\"\(f(legendX))\" y=\"20\" class=\"legend\">n/a: nothing to divide</text>"
        }
        if categories.isEmpty {
            svg += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(self.top + plotHeight / 2))\" text-anchor=\"middle\" class=\"empty\">no data in this range</text>"
        }
        return svg + "</svg>"
    }

    private var dataMaximum: Double {
        var maximum = 0.0
        for index in categories.indices {
            let values = series.compactMap { index < $0.values.count ? $0.values[index] : nil }
            maximum = max(maximum, layout == .stacked ? values.reduce(0, +) : values.max() ?? 0)
        }
        return maximum
    }

    private func bar(x: Double, y: Double, width: Double, height: Double, fill: String, tooltip: String) -> String {
        "<rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(width))\" height=\"\(f(height))\" fill=\"\(fill)\"><title>\(HTMLText.escape(tooltip))</title></rect>"
    }

    /// 1, 2 or 5 times a power of ten, at least `value` (and at least 1).
    /// How many intervals a count axis up to `top` (a `niceCeiling`) is cut into, so that every tick is a whole
    /// count: quarters of 1, 10 or 50 are fractions (an empty chart's axis read 0, 0.3, 0.5, 0.8, 1).
    static func wholeIntervals(_ top: Double) -> Int {
        [4, 5, 2].first { top.truncatingRemainder(dividingBy: Double($0)) == 0 } ?? 1
    }

    static func niceCeiling(_ value: Double) -> Double {
        guard value > 1 else { return 1 }
        var power = 1.0
        while power * 10 <= value { power *= 10 }
        for step in [1.0, 2.0, 5.0, 10.0] where step * power >= value { return step * power }
        return 10 * power
    }

    /// Coordinates with two decimals at most.
    private func f(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let whole = hundredths / 100
        let fraction = abs(hundredths % 100)
        if fraction == 0 { return String(whole) }
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
