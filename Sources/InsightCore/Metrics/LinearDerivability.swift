/// Which withheld cells can be computed exactly from the published ones, by any combination of the table's sums.
///
/// The sums restricted to the withheld cells form a linear system whose right-hand side is known. A withheld cell
/// (or a combination of cells) is computable exactly when it lies in the row space of that system. The rows are
/// reduced once, with integer (fraction-free) elimination so that no rounding can hide or invent a derivation.
///
/// Most withheld cells (a day of a series, one status of the mix) appear in one sum only. A row holding such a cell
/// is set aside first ("peeled", repeatedly): no other row can cancel that cell, so the row adds only what is needed
/// to reach that cell. Only the rows left, which link the shared totals, go through full elimination; this keeps a
/// year of daily cells cheap.
public struct LinearDerivability: Sendable {
    private typealias Row = [Int: Int]

    /// Rows set aside, in order, each with a cell that appears in no row set aside after it nor in the core.
    private var peeled: [(column: Int, row: Row)] = []
    /// The remaining rows, reduced; each pivot column appears in its own row only.
    private var core: [(column: Int, row: Row)] = []

    public init(table: SuppressionTable, suppressed: [Bool]) {
        var rows: [Row] = []
        for line in table.lines {
            var row: Row = [:]
            for term in line where suppressed[term.cell] { row[term.cell, default: 0] += term.coefficient }
            row = row.filter { $0.value != 0 }
            if !row.isEmpty { rows.append(row) }
        }
        var occurrences: [Int: Int] = [:]
        for row in rows { for cell in row.keys { occurrences[cell, default: 0] += 1 } }
        var alive = Array(repeating: true, count: rows.count)
        var changed = true
        while changed {
            changed = false
            for index in rows.indices where alive[index] {
                guard let single = rows[index].keys.filter({ occurrences[$0] == 1 }).min() else { continue }
                alive[index] = false
                for cell in rows[index].keys { occurrences[cell]! -= 1 }
                peeled.append((single, rows[index]))
                changed = true
            }
        }
        for index in rows.indices where alive[index] { addToCore(rows[index]) }
    }

    /// Withheld cells that some combination of sums pins down exactly.
    public var determinedCells: [Int] {
        var cells = core.compactMap { $0.row.count == 1 ? $0.column : nil }
        for entry in peeled where reduce([entry.column: 1]).isEmpty { cells.append(entry.column) }
        return cells.sorted()
    }

    /// True when `Σ coefficient × cell` can be computed from the published cells (trivially so when every cell of it
    /// is published).
    public func isDetermined(_ combination: [SuppressionTable.Term], suppressed: [Bool]) -> Bool {
        var row: Row = [:]
        for term in combination where suppressed[term.cell] { row[term.cell, default: 0] += term.coefficient }
        row = row.filter { $0.value != 0 }
        return row.isEmpty || reduce(row).isEmpty
    }

    private mutating func addToCore(_ row: Row) {
        let reduced = reduceByCore(row)
        guard let column = reduced.keys.min() else { return }
        for index in core.indices where core[index].row[column] != nil {
            core[index].row = Self.eliminate(column, from: core[index].row, using: reduced)
        }
        core.append((column, reduced))
    }

    /// Peeled rows in order (each eliminates its own cell and brings in only later ones), then the core.
    private func reduce(_ row: Row) -> Row {
        var row = row
        for entry in peeled where row[entry.column] != nil {
            row = Self.eliminate(entry.column, from: row, using: entry.row)
        }
        return reduceByCore(row)
    }

    private func reduceByCore(_ row: Row) -> Row {
        var row = row
        for pivot in core where row[pivot.column] != nil {
            row = Self.eliminate(pivot.column, from: row, using: pivot.row)
        }
        return row
    }

    /// `target × p - pivot × t`, where p and t are the column's entries: the column drops out, all stays integral.
    private static func eliminate(_ column: Int, from target: Row, using pivot: Row) -> Row {
        guard let t = target[column], let p = pivot[column] else { return target }
        var result: Row = [:]
        result.reserveCapacity(target.count + pivot.count)
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
