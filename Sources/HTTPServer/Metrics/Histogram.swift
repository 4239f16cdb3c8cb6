import Synchronization

/// Observations counted into cumulative buckets, Prometheus style.
public final class Histogram: Sendable {
    struct Snapshot {
        var bucketCounts: [UInt64]
        var sum: Double
        var count: UInt64
    }

    public static let defaultBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    let upperBounds: [Double]
    private let state: Mutex<Snapshot>

    init(buckets: [Double]) {
        upperBounds = buckets.sorted()
        state = Mutex(Snapshot(bucketCounts: Array(repeating: 0, count: buckets.count), sum: 0, count: 0))
    }

    public func observe(_ value: Double) {
        let bucket = upperBounds.firstIndex { value <= $0 }
        state.withLock { snapshot in
            if let bucket { snapshot.bucketCounts[bucket] += 1 }
            snapshot.sum += value
            snapshot.count += 1
        }
    }

    var snapshot: Snapshot { state.withLock { $0 } }
}
