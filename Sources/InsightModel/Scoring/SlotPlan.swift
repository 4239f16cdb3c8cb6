/// How a row is widened before scoring: one slot per (feature, missing-value rule) used by some node, so that a
/// single ordered compare `slot < threshold` decides every node, missing values included. Slot 0 is a constant
/// -inf that padding and leaf self-loops read (always left against a +inf threshold).
struct SlotPlan: Sendable {
    enum Kind: UInt8, Sendable, Hashable, Comparable {
        /// -inf: always left against +inf.
        case constantLeft
        /// The value; NaN stays NaN and goes right.
        case raw
        /// NaN becomes -inf: missing goes left.
        case missingLeft
        /// NaN becomes 0 (LightGBM missing type None).
        case missingAsZero
        /// NaN or |x| <= 1e-35 becomes -inf (missing type Zero, default left).
        case zeroLeft
        /// NaN or |x| <= 1e-35 becomes NaN (missing type Zero, default right).
        case zeroRight
        /// NaN stays NaN, anything else becomes -inf: for `x <= +inf` nodes whose missing values go right.
        case markMissing
        /// NaN or |x| <= 1e-35 becomes NaN, anything else -inf (the same, missing type Zero).
        case markZeroOrMissing
        /// NaN becomes -inf, anything else +inf: for `x < -inf` nodes (no number goes left) whose missing values
        /// go left. XGBoost writes such a split when a feature's values reach float32's limit.
        case markMissingOnly
        /// NaN or |x| <= 1e-35 becomes -inf, anything else +inf (the same, missing type Zero).
        case markZeroOrMissingOnly

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    struct Source: Sendable, Hashable {
        var feature: Int32
        var kind: Kind
    }

    /// Slot 0 is `constantLeft`; the rest are sorted by kind so the widening loop's switch predicts well.
    private(set) var sources: [Source] = [Source(feature: 0, kind: .constantLeft)]
    private var index: [Source: UInt32] = [Source(feature: 0, kind: .constantLeft): 0]
    /// Consecutive slots of one kind, fixed by `finalize()`.
    private(set) var kindRuns: [(kind: Kind, slots: Range<Int>)] = []
    /// LightGBM's predictor reads |x| <= 1e-35 as 0 (float64 models only).
    let flushesTinyToZero: Bool

    init(flushesTinyToZero: Bool) {
        self.flushesTinyToZero = flushesTinyToZero
    }

    var count: Int { sources.count }

    mutating func slot(feature: Int, kind: Kind) -> UInt32 {
        if kind == .constantLeft { return 0 }
        let source = Source(feature: Int32(feature), kind: kind)
        if let existing = index[source] { return existing }
        let slot = UInt32(sources.count)
        sources.append(source)
        index[source] = slot
        return slot
    }

    /// The slot and compiled threshold for one split, so that "left iff slot value < threshold" reproduces the
    /// document's rule. `x <= t` becomes `x < nextUp(t)`, exact for every non-NaN x; `x <= +inf` and `x < -inf`
    /// use markers, since the -inf that stands for "missing, go left" must not meet a threshold it equals.
    mutating func compile<Scalar: BinaryFloatingPoint>(
        feature: Int, threshold: Double, missing: MissingValueType, defaultLeft: Bool, comparison: SplitComparison,
        as: Scalar.Type
    ) -> (slot: UInt32, threshold: Scalar) {
        let value = Scalar(threshold)
        if comparison == .lessThan && value == -.infinity {
            // No value is below -inf: only missing values can go left, and only by default. Slot 0 holds -inf,
            // which is not below -inf either, so it sends every row right.
            switch (missing, defaultLeft) {
            case (.nan, true): return (slot(feature: feature, kind: .markMissingOnly), .infinity)
            case (.zero, true): return (slot(feature: feature, kind: .markZeroOrMissingOnly), .infinity)
            case (.none, _), (_, false): return (0, -.infinity)
            }
        }
        if comparison == .lessThanOrEqual && value == .infinity {
            let kind: Kind
            switch missing {
            case .none: kind = .constantLeft
            case .nan: kind = defaultLeft ? .constantLeft : .markMissing
            case .zero: kind = defaultLeft ? .constantLeft : .markZeroOrMissing
            }
            return (slot(feature: feature, kind: kind), .infinity)
        }
        let compiled = comparison == .lessThan ? value : value.nextUp
        let kind: Kind
        switch missing {
        case .none: kind = .missingAsZero
        case .nan: kind = defaultLeft ? .missingLeft : .raw
        case .zero: kind = defaultLeft ? .zeroLeft : .zeroRight
        }
        return (slot(feature: feature, kind: kind), compiled)
    }

    /// Fixes the final slot order (sorted by kind, constant first); later `compile` calls return final slots.
    mutating func finalize() {
        let order = sources.indices.sorted { (sources[$0].kind, sources[$0].feature) < (sources[$1].kind, sources[$1].feature) }
        sources = order.map { sources[$0] }
        index = [:]
        for (slot, source) in sources.enumerated() { index[source] = UInt32(slot) }
        kindRuns = []
        var start = 0
        while start < sources.count {
            var end = start + 1
            while end < sources.count, sources[end].kind == sources[start].kind { end += 1 }
            kindRuns.append((sources[start].kind, start..<end))
            start = end
        }
    }

    /// Writes every slot of one row to `output[slot * stride]`. Slots are sorted by kind, so each kind is one
    /// tight loop without a per-slot switch.
    @inline(__always)
    func widen<Scalar: BinaryFloatingPoint>(
        _ row: UnsafePointer<Double>, into output: UnsafeMutablePointer<Scalar>, stride: Int
    ) {
        if flushesTinyToZero {
            widen(row, into: output, stride: stride, flush: true)
        } else {
            widen(row, into: output, stride: stride, flush: false)
        }
    }

    @inline(__always)
    private func widen<Scalar: BinaryFloatingPoint>(
        _ row: UnsafePointer<Double>, into output: UnsafeMutablePointer<Scalar>, stride: Int, flush: Bool
    ) {
        let tiny = Scalar(Float(1e-35))
        @inline(__always) func read(_ feature: Int32) -> Scalar {
            let x = Scalar(row[Int(feature)])
            return flush && x.magnitude <= tiny ? 0 : x
        }
        @inline(__always) func isZeroOrMissing(_ x: Scalar) -> Bool { x.isNaN || x.magnitude <= tiny }
        sources.withUnsafeBufferPointer { sources in
            for run in kindRuns {
                switch run.kind {
                case .constantLeft:
                    for slot in run.slots { output[slot * stride] = -.infinity }
                case .raw:
                    for slot in run.slots { output[slot * stride] = read(sources[slot].feature) }
                case .missingLeft:
                    for slot in run.slots {
                        let x = read(sources[slot].feature)
                        output[slot * stride] = x.isNaN ? -.infinity : x
                    }
                case .missingAsZero:
                    for slot in run.slots {
                        let x = read(sources[slot].feature)
                        output[slot * stride] = x.isNaN ? 0 : x
                    }
                case .zeroLeft:
                    for slot in run.slots {
                        let x = read(sources[slot].feature)
                        output[slot * stride] = isZeroOrMissing(x) ? -.infinity : x
                    }
                case .zeroRight:
                    for slot in run.slots {
                        let x = read(sources[slot].feature)
                        output[slot * stride] = isZeroOrMissing(x) ? .nan : x
                    }
                case .markMissing:
                    for slot in run.slots {
                        output[slot * stride] = read(sources[slot].feature).isNaN ? .nan : -.infinity
                    }
                case .markZeroOrMissing:
                    for slot in run.slots {
                        output[slot * stride] = isZeroOrMissing(read(sources[slot].feature)) ? .nan : -.infinity
                    }
                case .markMissingOnly:
                    for slot in run.slots {
                        output[slot * stride] = read(sources[slot].feature).isNaN ? -.infinity : .infinity
                    }
                case .markZeroOrMissingOnly:
                    for slot in run.slots {
                        output[slot * stride] = isZeroOrMissing(read(sources[slot].feature)) ? -.infinity : .infinity
                    }
                }
            }
        }
    }
}
