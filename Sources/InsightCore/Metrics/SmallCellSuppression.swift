/// Small-cell suppression with complementary suppression.
///
/// Primary: every count below `k` is withheld. Complementary: within every sum that holds a withheld cell, at least
/// two cells are withheld and together they hold at least `k`, so that the sum neither gives a withheld cell away
/// nor narrows it to a few values; then an exact check over all sums together (`LinearDerivability`) withholds
/// more until no withheld cell can be computed from the published ones. Complements are the smallest published
/// cells that are not totals, so that as little as possible is lost.
public struct SmallCellSuppression: Sendable {
    public var k: Int

    public init(k: Int) { self.k = k }

    public func apply(to table: SuppressionTable) -> SuppressionOutcome {
        var suppressed = table.values.map { k > 0 && $0 < k }
        guard suppressed.contains(true) else { return SuppressionOutcome(table: table, suppressed: suppressed) }
        while true {
            var changed = false
            for line in table.lines {
                let hidden = line.filter { suppressed[$0.cell] }
                guard !hidden.isEmpty else { continue }
                let mass = hidden.reduce(0) { $0 + table.values[$1.cell] }
                if hidden.count >= 2 && mass >= k { continue }
                if let complement = complement(in: line, table: table, suppressed: suppressed) {
                    suppressed[complement] = true
                    changed = true
                }
            }
            if changed { continue }
            let derivability = LinearDerivability(table: table, suppressed: suppressed)
            guard let exposed = derivability.determinedCells.first else { break }
            let containing = table.lines.filter { $0.contains { $0.cell == exposed } }
            let withSuppression = table.lines.filter { $0.contains { suppressed[$0.cell] } }
            let next = best(containing.compactMap { complement(in: $0, table: table, suppressed: suppressed) }, table)
                ?? best(withSuppression.compactMap { complement(in: $0, table: table, suppressed: suppressed) }, table)
            guard let next else { break }
            suppressed[next] = true
        }
        return SuppressionOutcome(table: table, suppressed: suppressed)
    }

    private func complement(in line: [SuppressionTable.Term], table: SuppressionTable, suppressed: [Bool]) -> Int? {
        best(line.map(\.cell).filter { !suppressed[$0] }, table)
    }

    /// Parts before totals, then the smallest value, then the earliest cell: deterministic.
    private func best(_ cells: [Int], _ table: SuppressionTable) -> Int? {
        cells.min { a, b in
            (table.isTotal[a] ? 1 : 0, table.values[a], a) < (table.isTotal[b] ? 1 : 0, table.values[b], b)
        }
    }
}

/// Which cells are withheld, and whether a combination of cells may still be published.
public struct SuppressionOutcome: Sendable {
    public let table: SuppressionTable
    public let suppressed: [Bool]
    private let derivability: LinearDerivability

    init(table: SuppressionTable, suppressed: [Bool]) {
        self.table = table
        self.suppressed = suppressed
        self.derivability = LinearDerivability(table: table, suppressed: suppressed)
    }

    /// The cell's value, or nil when it is withheld.
    public func published(_ cell: Int) -> Int? { suppressed[cell] ? nil : table.values[cell] }

    /// True when publishing `Σ coefficient × cell` (say, a ratio's numerator) reveals nothing the published cells
    /// and the sums do not already give away.
    public func canPublish(_ combination: [SuppressionTable.Term]) -> Bool {
        derivability.isDetermined(combination, suppressed: suppressed)
    }

    public func canPublish(cells: [Int]) -> Bool {
        canPublish(cells.map { SuppressionTable.Term(cell: $0, coefficient: 1) })
    }
}
