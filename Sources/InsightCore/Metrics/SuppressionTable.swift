/// Counts about to be published, and the sums that tie them together (a group's total is the sum of its consumption
/// mix, and so on). Suppression must leave no withheld count computable from the published ones through these sums.
public struct SuppressionTable: Sendable, Equatable {
    /// One cell of a linear relation `Σ coefficient × cell = 0`.
    public struct Term: Sendable, Hashable {
        public var cell: Int
        public var coefficient: Int

        public init(cell: Int, coefficient: Int) {
            self.cell = cell
            self.coefficient = coefficient
        }
    }

    public private(set) var values: [Int] = []
    /// Totals are withheld only as a last resort when a sum needs another hidden cell: they carry the most.
    public private(set) var isTotal: [Bool] = []
    public private(set) var lines: [[Term]] = []

    public init() {}

    /// Adds a count and returns its cell index.
    public mutating func addCell(_ value: Int, isTotal: Bool = false) -> Int {
        values.append(value)
        self.isTotal.append(isTotal)
        return values.count - 1
    }

    /// Records that the cells `totals` add up to the same as the cells `parts`.
    public mutating func addSum(totals: [Int], parts: [Int]) {
        let terms = totals.map { Term(cell: $0, coefficient: 1) } + parts.map { Term(cell: $0, coefficient: -1) }
        guard terms.count >= 2, Set(terms.map(\.cell)).count == terms.count else { return }
        lines.append(terms)
    }

    public mutating func addSum(total: Int, parts: [Int]) { addSum(totals: [total], parts: parts) }
}
