/// Turns a group's exact counts into its published figures: every count becomes a cell of a suppression table,
/// every published sum a line, and ratios are published only when their parts can be computed from what is
/// published anyway.
extension GroupTally {
    struct Disclosure {
        var metrics: GroupMetrics
        /// The group's confirmed fraud, for recall across sibling groups when grouped by outcome.
        var confirmedFraud: Int
        var confirmedFraudPublished: Bool
    }

    /// Where a cell is published, as a JSON Pointer relative to the group; rendered only for withheld cells (a year
    /// of daily cells would otherwise cost a string each).
    private enum CellName {
        case path(String)
        case day(Int, String)

        var pointer: String {
            switch self {
            case .path(let path): path
            case .day(let index, let field): "/series/\(index)/\(field)"
            }
        }
    }

    func disclosed(dimensions: [GroupMetrics.Dimension], groupBy: [MetricsDimension], policy: MetricsPolicy, today: Int64) -> Disclosure {
        var table = SuppressionTable()
        var names: [CellName] = []
        var aliases: [Int: [String]] = [:]
        func cell(_ value: Int, _ name: CellName, isTotal: Bool = false) -> Int {
            names.append(name)
            return table.addCell(value, isTotal: isTotal)
        }
        let ownOutcome = groupBy.contains(.outcome) ? RiskLevel.allCases.first { outcomes[$0.ordinal].evaluations > 0 } : nil
        let ownConsumption = groupBy.contains(.consumption) ? ConsumptionBucket.allCases.first { consumption[$0.ordinal] > 0 } : nil

        let evaluations = cell(total.evaluations, .path("/evaluations"), isTotal: true)
        let fraud = cell(total.confirmedFraud, .path("/labels/confirmedFraud"), isTotal: true)
        let legitimate = cell(total.confirmedLegitimate, .path("/labels/confirmedLegitimate"), isTotal: true)

        var consumptionCells: [(ConsumptionBucket, Int)] = []
        if let ownConsumption {
            aliases[evaluations, default: []].append("/consumption/\(ownConsumption.rawValue)")
            consumptionCells = [(ownConsumption, evaluations)]
        } else {
            consumptionCells = ConsumptionBucket.allCases.map { ($0, cell(consumption[$0.ordinal], .path("/consumption/\($0.rawValue)"))) }
            table.addSum(total: evaluations, parts: consumptionCells.map(\.1))
        }
        let late = cell(self.late, .path("/consumption/late"))

        var outcomeCells: [(RiskLevel, n: Int, f: Int, l: Int)] = []
        if let ownOutcome {
            let base = "/outcomes/\(ownOutcome.rawValue)/"
            aliases[evaluations, default: []].append(base + "evaluations")
            aliases[fraud, default: []].append(base + "confirmedFraud")
            aliases[legitimate, default: []].append(base + "confirmedLegitimate")
            outcomeCells = [(ownOutcome, evaluations, fraud, legitimate)]
        } else {
            for level in RiskLevel.allCases {
                let counts = outcomes[level.ordinal]
                let base = "/outcomes/\(level.rawValue)/"
                outcomeCells.append((
                    level, cell(counts.evaluations, .path(base + "evaluations")), cell(counts.confirmedFraud, .path(base + "confirmedFraud")),
                    cell(counts.confirmedLegitimate, .path(base + "confirmedLegitimate"))))
            }
            table.addSum(total: evaluations, parts: outcomeCells.map(\.n))
            table.addSum(total: fraud, parts: outcomeCells.map(\.f))
            table.addSum(total: legitimate, parts: outcomeCells.map(\.l))
        }

        let histogram = latency.histogram().enumerated().map { index, count in
            cell(count, .path("/labelLatencyDays/histogram/\(index)/labels"))
        }
        table.addSum(totals: [fraud, legitimate], parts: histogram)

        let dayKeys = days.keys.sorted()
        let dayCells = dayKeys.enumerated().map { index, day in
            let counts = days[day]!
            return (day, n: cell(counts.evaluations, .day(index, "evaluations")),
                    f: cell(counts.confirmedFraud, .day(index, "confirmedFraud")),
                    l: cell(counts.confirmedLegitimate, .day(index, "confirmedLegitimate")))
        }
        table.addSum(total: evaluations, parts: dayCells.map(\.n))
        table.addSum(total: fraud, parts: dayCells.map(\.f))
        table.addSum(total: legitimate, parts: dayCells.map(\.l))

        let outcome = SmallCellSuppression(k: policy.suppressionK).apply(to: table)
        var suppressed: [String] = []
        for index in names.indices where outcome.suppressed[index] {
            suppressed.append(names[index].pointer)
            suppressed += aliases[index] ?? []
        }

        func ratio(_ numerator: [Int], over denominator: [Int], path: String) -> Double? {
            guard outcome.canPublish(cells: numerator), outcome.canPublish(cells: denominator) else {
                suppressed.append(path)
                return nil
            }
            let top = numerator.reduce(0) { $0 + table.values[$1] }
            let bottom = denominator.reduce(0) { $0 + table.values[$1] }
            return bottom == 0 ? nil : Double(top) / Double(bottom)
        }

        let outcomeFigures = outcomeCells.map { level, n, f, l in
            GroupMetrics.OutcomeFigures(
                outcome: level, evaluations: outcome.published(n), confirmedFraud: outcome.published(f),
                confirmedLegitimate: outcome.published(l),
                fraudRate: ratio([f], over: [f, l], path: "/outcomes/\(level.rawValue)/fraudRate"))
        }
        var recallMediumOrAbove: Double?
        var recallHigh: Double?
        if ownOutcome == nil {
            let medium = outcomeCells[RiskLevel.medium.ordinal].f
            let high = outcomeCells[RiskLevel.high.ordinal].f
            recallMediumOrAbove = ratio([medium, high], over: [fraud], path: "/recall/mediumOrAbove")
            recallHigh = ratio([high], over: [fraud], path: "/recall/high")
        }

        let latencyPublished = policy.suppressionK == 0 || latency.count >= policy.suppressionK
        if !latencyPublished { suppressed += ["/labelLatencyDays/median", "/labelLatencyDays/p90"] }
        let bucketCounts = histogram.map { table.values[$0] }
        let bucketWithheld = histogram.map { outcome.suppressed[$0] }
        let histogramTotalComputable = outcome.canPublish(cells: histogram)
        func quantile(_ fraction: Double, path: String) -> Int? {
            guard latencyPublished, let days = latency.quantile(fraction) else { return nil }
            guard QuantileDisclosure.mayPublish(
                days: days, bucketCounts: bucketCounts, withheld: bucketWithheld, totalComputable: histogramTotalComputable)
            else {
                suppressed.append(path)
                return nil
            }
            return days
        }
        let latencyFigures = GroupMetrics.LatencyFigures(
            medianDays: quantile(0.5, path: "/labelLatencyDays/median"),
            p90Days: quantile(0.9, path: "/labelLatencyDays/p90"),
            histogram: zip(LatencyBucket.all, histogram).map { ($0, outcome.published($1)) })

        let newestDay = dayKeys.last ?? today
        let metrics = GroupMetrics(
            dimensions: dimensions, mature: today - newestDay >= Int64(policy.maturityDays), newestDay: newestDay,
            evaluations: outcome.published(evaluations),
            consumption: consumptionCells.map { .init(bucket: $0.0, evaluations: outcome.published($0.1)) },
            late: outcome.published(late), confirmedFraud: outcome.published(fraud),
            confirmedLegitimate: outcome.published(legitimate), outcomes: outcomeFigures,
            recallMediumOrAbove: recallMediumOrAbove, recallHigh: recallHigh, latency: latencyFigures,
            series: dayCells.map { day, n, f, l in
                GroupMetrics.Day(
                    day: day, mature: today - day >= Int64(policy.maturityDays), evaluations: outcome.published(n),
                    confirmedFraud: outcome.published(f), confirmedLegitimate: outcome.published(l))
            },
            suppressed: suppressed)
        return Disclosure(
            metrics: metrics, confirmedFraud: total.confirmedFraud, confirmedFraudPublished: !outcome.suppressed[fraud])
    }
}
