import Synchronization

/// A monotonically increasing count; lock-free to update from any thread.
public final class Counter: Sendable {
    private let count = Atomic<UInt64>(0)

    init() {}

    public func increment(by amount: UInt64 = 1) {
        count.add(amount, ordering: .relaxed)
    }

    public var value: UInt64 { count.load(ordering: .relaxed) }
}
