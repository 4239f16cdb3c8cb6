/// Which withheld cells can be computed exactly from the published ones, by any combination of the table's sums.
///
/// The sums restricted to the withheld cells form a linear system whose right-hand side is known. A withheld cell
/// (or a combination of cells) is computable exactly when it lies in the row space of that system. The rows are
/// reduced once, with integer (fraction-free) elimination so that no rounding can hide or invent a derivation.
public struct LinearDerivability: Sendable {
    private typealias Row = [Int: Int]

    /// Reduced rows; each pivot column appears in its own row only.
    private var pivots: [(column: Int, row: Row)] = []

    public init(table: SuppressionTable, suppressed: [Bool]) {
        for line in table.lines {
            var row: Row = [:]
            for term in line where suppressed[term.cell] { row[term.cell, default: 0] += term.coefficient }
            row = row.filter { $0.value != 0 }
            add(row)
        }
    }

    /// Withheld cells that some combination of sums pins down exactly.
    public var determinedCells: [Int] {
        pivots.compactMap { $0.row.count == 1 ? $0.column : nil }.sorted()
    }

    /// True when `Σ coefficient × cell` can be computed from the published cells (trivially so when every cell of it
    /// is published).
    public func isDetermined(_ combination: [SuppressionTable.Term], suppressed: [Bool]) -> Bool {
        var row: Row = [:]
        for term in combination where suppressed[term.cell] { row[term.cell, default: 0] += term.coefficient }
        row = row.filter { $0.value != 0 }
        return reduce(row).isEmpty
    }

    private mutating func add(_ row: Row) {
        let reduced = reduce(row)
        guard let column = reduced.keys.min() else { return }
        for index in pivots.indices where pivots[index].row[column] != nil {
            pivots[index].row = Self.eliminate(column, from: pivots[index].row, using: reduced)
        }
        pivots.append((column, reduced))
    }

    private func reduce(_ row: Row) -> Row {
        var row = row
        for pivot in pivots where row[pivot.column] != nil {
            row = Self.eliminate(pivot.column, from: row, using: pivot.row)
        }
        return row
    }

    /// `target × p - pivot × t`, where p and t are the column's entries: the column drops out, all stays integral.
    private static func eliminate(_ column: Int, from target: Row, using pivot: Row) -> Row {
        guard let t = target[column], let p = pivot[column] else { return target }
        var result: Row = [:]
        for (cell, value) in target { result[cell] = value * p }
        for (cell, value) in pivot { result[cell, default: 0] -= value * t }
        result = result.filter { $0.value != 0 }
        let divisor = result.values.reduce(0) { gcd($0, abs($1)) }
        if divisor > 1 { result = result.mapValues { $0 / divisor } }
        return result
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
