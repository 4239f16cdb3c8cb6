
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
