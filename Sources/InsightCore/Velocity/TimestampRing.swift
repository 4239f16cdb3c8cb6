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

/// The distinct members (devices of an account, accounts of a counterparty) with the last time each was seen.
struct DistinctRecency {
    private var members: [(key: SubjectKey, lastSeen: Int64)] = []

    mutating func touch(_ key: SubjectKey, at time: Int64, capacity: Int) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].lastSeen = max(members[index].lastSeen, time)
            return
        }
        if members.count >= capacity, let oldest = members.indices.min(by: { members[$0].lastSeen < members[$1].lastSeen }) {
            members.remove(at: oldest)
        }
        members.append((key, time))
    }

    mutating func removeAll(atOrBefore cutoff: Int64) {
        members.removeAll { $0.lastSeen <= cutoff }
    }

    func count(after cutoff: Int64) -> Int {
        var total = 0
        for member in members where member.lastSeen > cutoff { total += 1 }
        return total
    }
}
