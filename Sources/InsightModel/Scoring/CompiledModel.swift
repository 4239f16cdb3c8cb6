/// A validated model compiled for fast scoring: immutable and shareable across threads.
///
/// Trees no deeper than `PaddedForest.maximumDepth` are padded to complete trees (index arithmetic, 8-byte
/// float32 nodes, SIMD batch); deeper models use linked nodes. Either way every score has exactly the bits of
/// `ReferenceWalk`, the plain walk that defines the model.
public final class CompiledModel: Sendable {
    enum Engine: Sendable {
        case padded32(PaddedForest<Float>)
        case padded64(PaddedForest<Double>)
        case linked32(LinkedForest<Float>)
        case linked64(LinkedForest<Double>)
    }

    public let document: ModelDocument
    let plan: SlotPlan
    let engine: Engine
    let contributionTable: ContributionTable
    /// For padded engines: contributions read from the leaves the scoring walk reaches (nil for linked ones).
    let leafPaths: LeafPaths?

    /// Validates and compiles; the error names `file` and the tree.
    public init(document: ModelDocument, file: String? = nil) throws(ModelValidationError) {
        try ModelValidator.validate(document, file: file)
        self.document = document
        let float32 = document.semantics.precision == .float32
        var plan = SlotPlan(flushesTinyToZero: !float32)
        // First pass registers every slot so the final slot order is fixed before nodes record slot numbers.
        var deepest = 0
        for tree in document.trees {
            deepest = max(deepest, Self.depth(of: tree))
            for node in 0..<tree.nodeCount where !tree.isLeaf(node) {
                let feature = tree.splitFeatures[node]
                let threshold = tree.thresholds[node]
                let missing = tree.missingTypes?[node] ?? .nan
                let comparison = document.semantics.comparison
                if float32 {
                    _ = plan.compile(
                        feature: feature, threshold: threshold, missing: missing, defaultLeft: tree.defaultLeft[node],
                        comparison: comparison, as: Float.self)
                } else {
                    _ = plan.compile(
                        feature: feature, threshold: threshold, missing: missing, defaultLeft: tree.defaultLeft[node],
                        comparison: comparison, as: Double.self)
                }
            }
        }
        plan.finalize()
        let paddedDepth = max(deepest, 1)
        switch (float32, paddedDepth <= PaddedForest<Float>.maximumDepth) {
        case (true, true): engine = .padded32(PaddedForest(document: document, plan: &plan, depth: paddedDepth))
        case (false, true): engine = .padded64(PaddedForest(document: document, plan: &plan, depth: paddedDepth))
        case (true, false): engine = .linked32(LinkedForest(document: document, plan: &plan))
        case (false, false): engine = .linked64(LinkedForest(document: document, plan: &plan))
        }
        self.plan = plan
        self.contributionTable = ContributionTable(document: document)
        switch engine {
        case .padded32(let forest): leafPaths = LeafPaths(document: document, depth: forest.depth)
        case .padded64(let forest): leafPaths = LeafPaths(document: document, depth: forest.depth)
        case .linked32, .linked64: leafPaths = nil
        }
    }

    static func depth(of tree: ModelTree) -> Int {
        var deepest = 0
        var stack = [(0, 0)]
        while let (node, depth) = stack.popLast() {
            deepest = max(deepest, depth)
            if !tree.isLeaf(node) {
                stack.append((tree.leftChildren[node], depth + 1))
                stack.append((tree.rightChildren[node], depth + 1))
            }
        }
        return deepest
    }

    public var featureNames: [String] { document.featureNames }
    public var featureCount: Int { document.featureNames.count }
    public var thresholds: RiskThresholds { document.thresholds }

    /// Which fast layout this model compiled to (for benchmarks and logs).
    public var layoutDescription: String {
        switch engine {
        case .padded32(let forest): "padded float32, depth \(forest.depth), \(plan.count) slots"
        case .padded64(let forest): "padded float64, depth \(forest.depth), \(plan.count) slots"
        case .linked32: "linked float32, \(plan.count) slots"
        case .linked64: "linked float64, \(plan.count) slots"
        }
    }

    /// The margin for one row in `featureNames` order (NaN = missing): the single-row fast path.
    public func margin(for row: UnsafeBufferPointer<Double>) -> Double {
        precondition(row.count == featureCount, "row width must match the model's features")
        let input = row.baseAddress!
        let slots = plan.count
        switch engine {
        case .padded32(let forest):
            return margin(fromSum: Self.withScratch(Float.self, slots: slots, trees: forest.treeCount) { widened, positions in
                plan.widen(input, into: widened, stride: 1)
                return forest.margin(widened: widened, positions: positions)
            })
        case .padded64(let forest):
            return margin(fromSum: Self.withScratch(Double.self, slots: slots, trees: forest.treeCount) { widened, positions in
                plan.widen(input, into: widened, stride: 1)
                return forest.margin(widened: widened, positions: positions)
            })
        case .linked32(let forest):
            return margin(fromSum: Self.withScratch(Float.self, slots: slots, trees: forest.treeCount) { widened, positions in
                plan.widen(input, into: widened, stride: 1)
                return forest.margin(widened: widened, positions: positions)
            })
        case .linked64(let forest):
            return margin(fromSum: Self.withScratch(Double.self, slots: slots, trees: forest.treeCount) { widened, positions in
                plan.widen(input, into: widened, stride: 1)
                return forest.margin(widened: widened, positions: positions)
            })
        }
    }

    /// The margin from a forest's sum (base margin and leaves): divided once by `sumDivisor` when the document has
    /// one, in the sum's own precision, as the reference walk divides.
    @inline(__always)
    func margin(fromSum sum: Float) -> Double {
        guard let divisor = document.sumDivisor else { return Double(sum) }
        return Double(sum / Float(divisor))
    }

    @inline(__always)
    func margin(fromSum sum: Double) -> Double {
        guard let divisor = document.sumDivisor else { return sum }
        return sum / Double(divisor)
    }

    public func margin(for row: [Double]) -> Double {
        row.withUnsafeBufferPointer { margin(for: $0) }
    }

    public func score(_ row: [Double]) -> ModelScore {
        let margin = margin(for: row)
        let probability = document.probability(margin: margin)
        return ModelScore(margin: margin, probability: probability, level: document.thresholds.level(for: probability))
    }

    /// The plain walk over the document: the definition every fast path must match bit for bit.
    public func referenceMargin(for row: [Double]) -> Double {
        ReferenceWalk(document: document).margin(for: row)
    }

    @inline(__always)
    static func withScratch<Scalar, Result>(
        _: Scalar.Type, slots: Int, trees: Int,
        _ body: (UnsafeMutablePointer<Scalar>, UnsafeMutablePointer<UInt32>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: Scalar.self, capacity: slots) { widened in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: trees) { positions in
                body(widened.baseAddress!, positions.baseAddress!)
            }
        }
    }
}
