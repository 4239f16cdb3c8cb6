import Synchronization

/// A value that goes up and down.
public final class Gauge: Sendable {
    private let current = Mutex<Double>(0)

    init() {}

    public func set(_ value: Double) {
        current.withLock { $0 = value }
    }

    public func increment(by amount: Double = 1) {
        current.withLock { $0 += amount }
    }

    public func decrement(by amount: Double = 1) {
        current.withLock { $0 -= amount }
    }

    public var value: Double { current.withLock { $0 } }
}
