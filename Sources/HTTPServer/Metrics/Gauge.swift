import Synchronization

/// A value that goes up and down; lock-free (the Double's bits live in an atomic word).
public final class Gauge: Sendable {
    private let bits = Atomic<UInt64>(0.0.bitPattern)

    init() {}

    public func set(_ value: Double) {
        bits.store(value.bitPattern, ordering: .relaxed)
    }

    public func increment(by amount: Double = 1) {
        var current = bits.load(ordering: .relaxed)
        while true {
            let next = (Double(bitPattern: current) + amount).bitPattern
            let (exchanged, original) = bits.compareExchange(
                expected: current, desired: next, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    public func decrement(by amount: Double = 1) {
        increment(by: -amount)
    }

    public var value: Double { Double(bitPattern: bits.load(ordering: .relaxed)) }
}
