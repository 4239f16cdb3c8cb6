/// Memory the boosting loop reuses for every tree, allocated once so the hot loops never allocate: gradients,
/// the row index partition, and a pool of histograms. A class because it owns raw memory; never shared between
/// trainings.
final class TrainingWorkspace {
    let rowCount: Int
    let totalBins: Int
    /// (gradient, hessian) per training row.
    let gradients: UnsafeMutablePointer<SIMD2<Float>>
    /// Sampled rows of the current tree, grouped by node: each node owns a contiguous range.
    let rows: UnsafeMutablePointer<UInt32>
    /// One node's gradient pairs in the order of its rows, for the column-major histogram loop.
    let orderedGradients: UnsafeMutablePointer<SIMD2<Float>>
    let scratch: UnsafeMutablePointer<UInt32>
    /// Histogram slots of `totalBins` (sum of gradients, sum of hessians) pairs, handed out by `takeSlot`.
    private(set) var slots: [UnsafeMutablePointer<SIMD2<Double>>] = []
    private var freeSlots: [Int] = []

    init(rowCount: Int, totalBins: Int) {
        self.rowCount = rowCount
        self.totalBins = totalBins
        gradients = .allocate(capacity: max(rowCount, 1))
        rows = .allocate(capacity: max(rowCount, 1))
        orderedGradients = .allocate(capacity: max(rowCount, 1))
        scratch = .allocate(capacity: max(rowCount, 1))
    }

    deinit {
        gradients.deallocate()
        rows.deallocate()
        orderedGradients.deallocate()
        scratch.deallocate()
        for slot in slots { slot.deallocate() }
    }

    func takeSlot() -> Int {
        if let slot = freeSlots.popLast() { return slot }
        let memory = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: totalBins)
        memory.initialize(repeating: .zero, count: totalBins)
        slots.append(memory)
        return slots.count - 1
    }

    func releaseSlot(_ slot: Int) {
        if slot >= 0 { freeSlots.append(slot) }
    }
}
