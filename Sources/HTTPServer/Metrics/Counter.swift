import Synchronization

/// A monotonically increasing count; lock-free to update from any thread.
public final class Counter: Sendable {
    private let count = Atomic<UInt64>(0)

    init() {}

    public func increment(by amount: UInt64 = 1) {
        count.add(amount, ordering: .relaxed)
    }

    /// For a running total kept elsewhere (read when metrics are collected): raises the count to `total`, never
    /// lowers it, so two collections racing each other cannot count anything twice.
    public func advance(to total: UInt64) {
        count.max(total, ordering: .relaxed)
    }

    public var value: UInt64 { count.load(ordering: .relaxed) }
}
