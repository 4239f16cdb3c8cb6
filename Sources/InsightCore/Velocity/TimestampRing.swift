/// Event times of one subject, oldest first, bounded: once full, the oldest time is dropped, so a count saturates
/// at the capacity instead of growing memory (the documented bounded error of the velocity counters).
struct TimestampRing {
    private var storage: [Int64] = []
    private var start = 0

    var count: Int { storage.count - start }

    /// Adds a time, keeping the times sorted. Two loops can observe one subject a little out of order (each took
    /// its time when its request arrived), and `removeAll` and `count(after:)` rely on the order.
    mutating func append(_ time: Int64, capacity: Int) {
        if count >= capacity {
            // Full: the newest `capacity` times stay, so a time older than all of them is not kept.
            if time < storage[start] { return }
            start += 1
        }
        var position = storage.count
        while position > start, storage[position - 1] > time { position -= 1 }
        if position == storage.count { storage.append(time) } else { storage.insert(time, at: position) }
        compactIfNeeded()
    }

    /// Drops times at or before `cutoff`.
    mutating func removeAll(atOrBefore cutoff: Int64) {
        while start < storage.count, storage[start] <= cutoff { start += 1 }
        compactIfNeeded()
    }

    /// Times in `(cutoff, through]`: a time after `through`, recorded first by another loop, is left out, as it
    /// would have been had the two come in order.
    func count(after cutoff: Int64, through: Int64) -> Int {
        count(after: cutoff) - count(after: through)
    }

    /// Times strictly after `cutoff` (binary search: the times are in order).
    func count(after cutoff: Int64) -> Int {
        var low = start
        var high = storage.count
        while low < high {
            let middle = (low + high) / 2
            if storage[middle] <= cutoff { low = middle + 1 } else { high = middle }
        }
        return storage.count - low
    }

    private mutating func compactIfNeeded() {
        if start > 32, start * 2 > storage.count {
            storage.removeFirst(start)
            start = 0
        }
    }
}
