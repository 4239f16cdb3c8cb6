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
        var state = State(table: table, k: k)
        guard state.suppressed.contains(true) else { return state.outcome() }
        while true {
            var changed = false
            for line in table.lines.indices where state.needsComplement(line) {
                if let complement = state.complement(in: table.lines[line]) {
                    state.withhold(complement)
                    changed = true
                }
            }
            if changed { continue }
            let derivability = LinearDerivability(table: table, suppressed: state.suppressed)
            guard let exposed = derivability.determinedCells.first else {
                return SuppressionOutcome(table: table, suppressed: state.suppressed, derivability: derivability)
            }
            let containing = state.lines(of: exposed).compactMap { state.complement(in: table.lines[$0]) }
            let anywhere = table.lines.indices.filter { state.hiddenCount[$0] > 0 }.compactMap { state.complement(in: table.lines[$0]) }
            guard let next = state.best(containing) ?? state.best(anywhere) else { break }
            state.withhold(next)
        }
        return state.outcome()
    }

    /// The withheld cells, and per line how many are withheld and what they hold, kept up to date as cells are
    /// withheld (a year of daily cells makes lines long; recounting them on every pass was most of the cost).
    private struct State {
        let table: SuppressionTable
        let k: Int
        var suppressed: [Bool]
        var hiddenCount: [Int]
        var hiddenMass: [Int]
        /// The lines of each cell, as offsets into `lineIndexes` (compressed rows: one allocation, not one per cell).
        private var offsets: [Int]
        private var lineIndexes: [Int]

        init(table: SuppressionTable, k: Int) {
            self.table = table
            self.k = k
            suppressed = table.values.map { k > 0 && $0 < k }
            hiddenCount = Array(repeating: 0, count: table.lines.count)
            hiddenMass = Array(repeating: 0, count: table.lines.count)
            var counts = Array(repeating: 0, count: table.values.count + 1)
            for line in table.lines { for term in line { counts[term.cell + 1] += 1 } }
            for index in 1..<counts.count { counts[index] += counts[index - 1] }
            offsets = counts
            lineIndexes = Array(repeating: 0, count: counts.last ?? 0)
            var next = counts
            for (index, line) in table.lines.enumerated() {
                for term in line {
                    lineIndexes[next[term.cell]] = index
                    next[term.cell] += 1
                    if suppressed[term.cell] {
                        hiddenCount[index] += 1
                        hiddenMass[index] += table.values[term.cell]
                    }
                }
            }
        }

        func lines(of cell: Int) -> ArraySlice<Int> { lineIndexes[offsets[cell]..<offsets[cell + 1]] }

        /// A line with withheld cells needs at least two of them, holding at least k together.
        func needsComplement(_ line: Int) -> Bool {
            hiddenCount[line] > 0 && (hiddenCount[line] < 2 || hiddenMass[line] < k)
        }

        mutating func withhold(_ cell: Int) {
            guard !suppressed[cell] else { return }
            suppressed[cell] = true
            for line in lines(of: cell) {
                hiddenCount[line] += 1
                hiddenMass[line] += table.values[cell]
            }
        }

        func complement(in line: [SuppressionTable.Term]) -> Int? {
            var chosen: Int?
            for term in line where !suppressed[term.cell] {
                if let current = chosen, !precedes(term.cell, current) { continue }
                chosen = term.cell
            }
            return chosen
        }

        func best(_ cells: [Int]) -> Int? {
            cells.min { precedes($0, $1) }
        }

        /// Parts before totals, then the smallest value, then the earliest cell: deterministic.
        private func precedes(_ a: Int, _ b: Int) -> Bool {
            (table.isTotal[a] ? 1 : 0, table.values[a], a) < (table.isTotal[b] ? 1 : 0, table.values[b], b)
        }

        func outcome() -> SuppressionOutcome {
            SuppressionOutcome(table: table, suppressed: suppressed, derivability: LinearDerivability(table: table, suppressed: suppressed))
        }
    }
}

/// Which cells are withheld, and whether a combination of cells may still be published.
public struct SuppressionOutcome: Sendable {
    public let table: SuppressionTable
    public let suppressed: [Bool]
    private let derivability: LinearDerivability

    init(table: SuppressionTable, suppressed: [Bool], derivability: LinearDerivability) {
        self.table = table
        self.suppressed = suppressed
        self.derivability = derivability
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
