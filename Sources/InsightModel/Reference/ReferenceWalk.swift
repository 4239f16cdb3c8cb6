/// The plain tree walk that defines what a model predicts: one node at a time, exactly the source libraries'
/// rules. Every fast path in `CompiledModel` must return the same bits; the property tests use this as the oracle.
public struct ReferenceWalk: Sendable {
    public let document: ModelDocument

    public init(document: ModelDocument) {
        self.document = document
    }

    /// LightGBM reads magnitudes up to this (a float32 constant) as zero.
    static let zeroThreshold = Double(Float(1e-35))

    /// The leaf each tree routes `row` to (row indexed like `featureNames`, NaN = missing).
    public func leaves(for row: [Double]) -> [Int] {
        document.trees.map { leaf(of: $0, row: row) }
    }

    public func margin(for row: [Double]) -> Double {
        switch document.semantics.precision {
        case .float32:
            var sum = Float(document.baseMargin)
            for tree in document.trees { sum += Float(tree.leafValues[leaf(of: tree, row: row)]) }
            if let divisor = document.sumDivisor { sum /= Float(divisor) }
            return Double(sum)
        case .float64:
            var sum = document.baseMargin
            for tree in document.trees { sum += tree.leafValues[leaf(of: tree, row: row)] }
            if let divisor = document.sumDivisor { sum /= Double(divisor) }
            return sum
        }
    }

    func leaf(of tree: ModelTree, row: [Double]) -> Int {
        var node = 0
        while tree.leftChildren[node] >= 0 {
            node = goesLeft(tree, node: node, row: row) ? tree.leftChildren[node] : tree.rightChildren[node]
        }
        return node
    }

    func goesLeft(_ tree: ModelTree, node: Int, row: [Double]) -> Bool {
        let missing = tree.missingTypes?[node] ?? .nan
        let defaultLeft = tree.defaultLeft[node]
        let raw = row[tree.splitFeatures[node]]
        switch document.semantics.precision {
        case .float32:
            var x = Float(raw)
            if x.isNaN && missing != .nan { x = 0 }
            if (missing == .nan && x.isNaN) || (missing == .zero && x.magnitude <= Float(1e-35)) { return defaultLeft }
            return compare(x, Float(tree.thresholds[node]))
        case .float64:
            var x = raw
            if x.magnitude <= Self.zeroThreshold { x = 0 }
            if x.isNaN && missing != .nan { x = 0 }
            if (missing == .nan && x.isNaN) || (missing == .zero && x.magnitude <= Self.zeroThreshold) { return defaultLeft }
            return compare(x, tree.thresholds[node])
        }
    }

    private func compare<T: BinaryFloatingPoint>(_ x: T, _ threshold: T) -> Bool {
        switch document.semantics.comparison {
        case .lessThan: x < threshold
        case .lessThanOrEqual: x <= threshold
        }
    }
}
