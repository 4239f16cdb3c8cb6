/// The subjects of one kind (accounts, or counterparties) in one shard of the velocity tracker, with how many each
/// partition holds.
///
/// When the table is full, room is made in the partition that can best spare it: sandbox partitions before any
/// production one, and among those the partition holding the most entries here; within it, the tenth of the
/// table's capacity with the oldest activity goes. So one tenant's flood of new subjects (or a load test on a
/// sandbox key) evicts its own entries once it holds more than any other tenant, and never a sandbox flood a
/// production entry while sandbox entries remain: every active production partition keeps at least an equal share.
struct PartitionedTable<State: VelocityEntry> {
    private(set) var entries: [SubjectKey: State] = [:]
    /// Entries per partition slot (slots are the shard's interned partitions).
    private var sizes: [Int] = []
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { entries.count }

    /// By index, not `entries[key] != nil`, which copies the entry out (retaining and releasing each of its arrays).
    func contains(_ key: SubjectKey) -> Bool { entries.index(forKey: key) != nil }

    /// Runs `body` on an existing key's entry in place, found with one lookup: copying an entry out and back would
    /// copy its times too, since the table would still hold them.
    mutating func modify<Result>(_ key: SubjectKey, _ body: (inout State) -> Result) -> Result? {
        guard let index = entries.index(forKey: key) else { return nil }
        return body(&entries.values[index])
    }

    /// Adds a new key, evicting first if the table is full. `isSandbox` tells a slot's environment.
    mutating func insert(_ key: SubjectKey, _ state: State, isSandbox: (Int) -> Bool) {
        if entries.count >= capacity { evict(isSandbox: isSandbox) }
        let slot = Int(state.partitionSlot)
        if slot >= sizes.count { sizes.append(contentsOf: repeatElement(0, count: slot + 1 - sizes.count)) }
        sizes[slot] += 1
        entries[key] = state
    }

    private mutating func evict(isSandbox: (Int) -> Bool) {
        var victim: Int?
        for slot in sizes.indices where sizes[slot] > 0 {
            guard let current = victim else { victim = slot; continue }
            let candidate = (isSandbox(slot), sizes[slot])
            let best = (isSandbox(current), sizes[current])
            // Sandbox first; then the largest partition.
            if candidate.0 && !best.0 || candidate.0 == best.0 && candidate.1 > best.1 { victim = slot }
        }
        guard let victim else { return }
        let slot = Int32(victim)
        let oldest = entries.filter { $0.value.partitionSlot == slot }
            .sorted { $0.value.lastActivity < $1.value.lastActivity }
            .prefix(max(1, capacity / 10))
        for (key, _) in oldest { entries.removeValue(forKey: key) }
        sizes[victim] -= oldest.count
    }
}

/// What a table needs of an entry to choose victims.
protocol VelocityEntry {
    var lastActivity: Int64 { get }
    var partitionSlot: Int32 { get }
}
