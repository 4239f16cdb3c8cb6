
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

    /// The members seen in `(cutoff, now]`, and `current` (seen at `now`, just touched, if any) whenever it was last seen.
    ///
    /// A member last seen after `now` is left out: the clock was stepped back (or another event loop's later
    /// request got here first), and counting it would raise the count above the exact one, where the window's
    /// count may only be low after a step (docs/VELOCITY.md, "The clock"). Before, a step back of a minute counted
    /// every device and account of that minute again, and fired `manyAccountsPayingCounterparty` (velocity probe,
    /// 6 December). `current` keeps its later time, so it counts here by key.
    func count(after cutoff: Int64, through now: Int64, current: SubjectKey?) -> Int {
        var total = 0
        for member in members where member.lastSeen > cutoff && (member.lastSeen <= now || member.key == current) {
            total += 1
        }
        return total
    }
}
