/// Label latencies in whole days (first label received minus evaluation, rounded down), kept exactly as counts per
/// day so that quantiles are exact.
public struct LatencyDistribution: Sendable, Equatable {
    public private(set) var countsByDay: [Int: Int] = [:]
    public private(set) var count = 0

    public init() {}

    public mutating func add(days: Int, count: Int) {
        guard count != 0 else { return }
        countsByDay[days, default: 0] += count
        self.count += count
    }

    /// The nearest-rank quantile: the smallest latency such that at least `fraction` of all latencies are at most
    /// it. Nil when there are none.
    public func quantile(_ fraction: Double) -> Int? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for day in countsByDay.keys.sorted() {
            seen += countsByDay[day]!
            if seen >= rank { return day }
        }
        return countsByDay.keys.max()
    }

    /// Counts per histogram bucket, in bucket order.
    public func histogram() -> [Int] {
        var counts = Array(repeating: 0, count: LatencyBucket.all.count)
        for (day, number) in countsByDay { counts[LatencyBucket.index(of: day)] += number }
        return counts
    }
}

/// The fixed histogram buckets of label latency, in days.
public struct LatencyBucket: Sendable, Equatable {
    public var fromDays: Int
    /// Nil for the open last bucket.
    public var toDays: Int?

    public static let all: [LatencyBucket] = [
        .init(fromDays: 0, toDays: 0), .init(fromDays: 1, toDays: 1), .init(fromDays: 2, toDays: 3),
        .init(fromDays: 4, toDays: 7), .init(fromDays: 8, toDays: 14), .init(fromDays: 15, toDays: 30),
        .init(fromDays: 31, toDays: 60), .init(fromDays: 61, toDays: 90), .init(fromDays: 91, toDays: 180),
        .init(fromDays: 181, toDays: nil),
    ]

    /// `0`, `2-3`, `181+`.
    public var label: String {
        guard let toDays else { return "\(fromDays)+" }
        return toDays == fromDays ? "\(fromDays)" : "\(fromDays)-\(toDays)"
    }

    static func index(of days: Int) -> Int {
        all.lastIndex { days >= $0.fromDays } ?? 0
    }
}
