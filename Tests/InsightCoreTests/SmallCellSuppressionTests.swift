import Testing
@testable import InsightCore

/// Finds, by brute force, every value each withheld cell can take given the published cells and the sums: an
/// independent check of the suppression, with no linear algebra shared with the code under test.
func feasibleValues(_ table: SuppressionTable, suppressed: [Bool], bound: Int) -> [Int: Set<Int>] {
    let hidden = table.values.indices.filter { suppressed[$0] }
    var found: [Int: Set<Int>] = [:]
    var guess = table.values
    func search(_ position: Int) {
        if position == hidden.count {
            let holds = table.lines.allSatisfy { line in line.reduce(0) { $0 + $1.coefficient * guess[$1.cell] } == 0 }
            if holds { for cell in hidden { found[cell, default: []].insert(guess[cell]) } }
            return
        }
        for value in 0...bound {
            guess[hidden[position]] = value
            search(position + 1)
        }
    }
    search(0)
    return found
}

@Suite struct SmallCellSuppressionTests {
    @Test func countsBelowKAreWithheldAndOthersPublished() {
        var table = SuppressionTable()
        let cells = [0, 3, 9, 10, 250].map { table.addCell($0) }
        let outcome = SmallCellSuppression(k: 10).apply(to: table)
        #expect(cells.map { outcome.published($0) } == [nil, nil, nil, 10, 250])
    }

    @Test func kZeroPublishesEverything() {
        var table = SuppressionTable()
        let total = table.addCell(3, isTotal: true)
        let parts = [1, 2].map { table.addCell($0) }
        table.addSum(total: total, parts: parts)
        let outcome = SmallCellSuppression(k: 0).apply(to: table)
        #expect(([total] + parts).map { outcome.published($0) } == [3, 1, 2])
    }

    @Test func aLoneSmallPartGetsAComplementSoTheTotalCannotGiveItAway() {
        var table = SuppressionTable()
        let total = table.addCell(140, isTotal: true)
        let small = table.addCell(4)
        let medium = table.addCell(36)
        let large = table.addCell(100)
        table.addSum(total: total, parts: [small, medium, large])
        let outcome = SmallCellSuppression(k: 10).apply(to: table)
        #expect(outcome.published(small) == nil)
        // The smallest other part is the complement; the total stays published.
        #expect(outcome.published(medium) == nil)
        #expect(outcome.published(large) == 100)
        #expect(outcome.published(total) == 140)
        let values = feasibleValues(table, suppressed: outcome.suppressed, bound: 140)
        #expect(values[small]!.count > 1)
        #expect(values[small]!.count >= 10, "the withheld small cell keeps at least k possible values")
    }

    @Test func twoTinyCellsAreNotEnoughProtectionForEachOther() {
        // 0 and 1 withheld alone would sum to 1 = total - published: both would be pinned to {0, 1}.
        var table = SuppressionTable()
        let total = table.addCell(61, isTotal: true)
        let parts = [0, 1, 20, 40].map { table.addCell($0) }
        table.addSum(total: total, parts: parts)
        let outcome = SmallCellSuppression(k: 10).apply(to: table)
        #expect(parts.map { outcome.published($0) } == [nil, nil, nil, 40])
        let hiddenMass = parts.filter { outcome.suppressed[$0] }.reduce(0) { $0 + table.values[$1] }
        #expect(hiddenMass >= 10)
    }

    @Test func aWithheldTotalIsNotRecomputedFromAnotherSum() {
        // Fraud (5) is withheld; fraud + legitimate (5 + 40) = latency buckets (30 + 15): publishing every bucket and
        // legitimate would give fraud away.
        var table = SuppressionTable()
        let fraud = table.addCell(5, isTotal: true)
        let legitimate = table.addCell(40, isTotal: true)
        let buckets = [30, 15].map { table.addCell($0) }
        table.addSum(totals: [fraud, legitimate], parts: buckets)
        let outcome = SmallCellSuppression(k: 10).apply(to: table)
        #expect(outcome.published(fraud) == nil)
        #expect(outcome.published(buckets[1]) == nil)
        #expect(feasibleValues(table, suppressed: outcome.suppressed, bound: 45)[fraud]!.count > 1)
    }

    @Test func cellsPinnedDownOnlyByCombiningSumsAreProtectedToo() {
        // x + y, x + z and y + z are each public (the other parts and the totals are published): every sum holds
        // two withheld cells worth at least k, yet together the three sums solve x, y and z. Only the exact check
        // over all sums finds this.
        var table = SuppressionTable()
        let x = table.addCell(3)
        let y = table.addCell(3)
        let z = table.addCell(3)
        let others = [4, 5, 6].map { table.addCell($0) }
        let totals = [10, 11, 12].map { table.addCell($0, isTotal: true) }
        table.addSum(total: totals[0], parts: [x, y, others[0]])
        table.addSum(total: totals[1], parts: [x, z, others[1]])
        table.addSum(total: totals[2], parts: [y, z, others[2]])
        let perLine = table.lines.allSatisfy { line in
            let hidden = line.filter { table.values[$0.cell] < 4 }
            return hidden.count >= 2 && hidden.reduce(0) { $0 + table.values[$1.cell] } >= 4
        }
        #expect(perLine, "the per-sum rule alone is satisfied by the primary cells")
        let outcome = SmallCellSuppression(k: 4).apply(to: table)
        let values = feasibleValues(table, suppressed: outcome.suppressed, bound: 12)
        for cell in [x, y, z] {
            #expect(outcome.published(cell) == nil)
            #expect(values[cell]!.count > 1, "cell \(cell) has a single feasible value")
        }
        #expect(LinearDerivability(table: table, suppressed: outcome.suppressed).determinedCells.isEmpty)
    }

    @Test func derivabilityFindsATriangleOfSums() {
        var table = SuppressionTable()
        let cells = [6, 6, 6, 12, 13, 14, 24, 25, 26].map { table.addCell($0) }
        table.addSum(total: cells[6], parts: [cells[0], cells[1], cells[3]])
        table.addSum(total: cells[7], parts: [cells[0], cells[2], cells[4]])
        table.addSum(total: cells[8], parts: [cells[1], cells[2], cells[5]])
        let hidden = cells.indices.map { $0 < 3 }
        #expect(LinearDerivability(table: table, suppressed: hidden).determinedCells == [0, 1, 2])
        // One more withheld part breaks the triangle: (-1, -1, 1, 2) solves the sums' differences.
        let fourHidden = cells.indices.map { $0 < 4 }
        #expect(LinearDerivability(table: table, suppressed: fourHidden).determinedCells == [])
        // Without the third sum, x + z is public but neither x nor z.
        var pair = SuppressionTable()
        let pairCells = [6, 6, 13, 25].map { pair.addCell($0) }
        pair.addSum(total: pairCells[3], parts: [pairCells[0], pairCells[1], pairCells[2]])
        let derivability = LinearDerivability(table: pair, suppressed: [true, true, false, false])
        #expect(derivability.determinedCells == [])
        #expect(derivability.isDetermined([.init(cell: 0, coefficient: 1), .init(cell: 1, coefficient: 1)], suppressed: [true, true, false, false]))
    }

    @Test func combinationsArePublishableOnlyWhenTheSumsGiveThemAway() {
        var table = SuppressionTable()
        let total = table.addCell(100, isTotal: true)
        let parts = [3, 7, 90].map { table.addCell($0) }
        table.addSum(total: total, parts: parts)
        let outcome = SmallCellSuppression(k: 10).apply(to: table)
        #expect(!outcome.canPublish(cells: [parts[0]]))
        #expect(outcome.canPublish(cells: [parts[0], parts[1]]), "3 + 7 = 100 - 90 is public anyway")
        #expect(outcome.canPublish(cells: [parts[2]]))
    }

    /// Independent of `LinearDerivability`: a withheld cell is computable exactly when removing its column from the
    /// sums (restricted to withheld cells) lowers their rank; the rank is computed in floating point with pivoting.
    @Test func randomTablesLeaveNoWithheldCellComputableFromTheSums() {
        var generator = SplitMix(seed: 7)
        for _ in 0..<200 {
            var table = SuppressionTable()
            let rows = 3
            let columns = 4
            var grid: [[Int]] = []
            for _ in 0..<rows { grid.append((0..<columns).map { _ in Int(generator.next() % 14) }) }
            let cells = grid.map { row in row.map { table.addCell($0) } }
            let rowTotals = grid.map { row in table.addCell(row.reduce(0, +), isTotal: true) }
            let columnTotals = (0..<columns).map { column in table.addCell(grid.reduce(0) { $0 + $1[column] }, isTotal: true) }
            let grandTotal = table.addCell(grid.flatMap { $0 }.reduce(0, +), isTotal: true)
            for row in 0..<rows { table.addSum(total: rowTotals[row], parts: cells[row]) }
            for column in 0..<columns { table.addSum(total: columnTotals[column], parts: cells.map { $0[column] }) }
            table.addSum(total: grandTotal, parts: rowTotals)
            table.addSum(total: grandTotal, parts: columnTotals)
            let outcome = SmallCellSuppression(k: 5).apply(to: table)
            let hidden = table.values.indices.filter { outcome.suppressed[$0] }
            let matrix = table.lines.map { line in
                hidden.map { cell in Double(line.first { $0.cell == cell }?.coefficient ?? 0) }
            }
            let fullRank = rank(matrix)
            for (position, cell) in hidden.enumerated() {
                let without = matrix.map { row in row.enumerated().filter { $0.offset != position }.map(\.element) }
                #expect(rank(without) == fullRank, "grid \(grid): cell \(cell) is computable")
            }
            for line in table.lines {
                let hiddenInLine = line.filter { outcome.suppressed[$0.cell] }
                if hiddenInLine.isEmpty || hiddenInLine.count == line.count { continue }
                #expect(hiddenInLine.count >= 2)
                #expect(hiddenInLine.reduce(0) { $0 + table.values[$1.cell] } >= 5)
            }
        }
    }

    private func rank(_ rows: [[Double]]) -> Int {
        var matrix = rows
        guard let width = matrix.first?.count, width > 0 else { return 0 }
        var rank = 0
        for column in 0..<width where rank < matrix.count {
            guard let pivot = (rank..<matrix.count).max(by: { abs(matrix[$0][column]) < abs(matrix[$1][column]) }),
                  abs(matrix[pivot][column]) > 1e-9 else { continue }
            matrix.swapAt(rank, pivot)
            for row in 0..<matrix.count where row != rank {
                let factor = matrix[row][column] / matrix[rank][column]
                if factor != 0 { for index in 0..<width { matrix[row][index] -= factor * matrix[rank][index] } }
            }
            rank += 1
        }
        return rank
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
