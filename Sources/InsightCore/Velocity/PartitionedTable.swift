/// The subjects of one kind (accounts, or counterparties) in one shard of the velocity tracker, with how many each
/// partition holds.
///
/// When the table is full, entries whose every window has passed go first: they hold no count. If that frees less
/// than a tenth of the capacity, the rest is made in the partition that can best spare it: sandbox partitions before
/// any production one, and among those the partition holding the most entries here; within it, the entries with the
/// oldest activity go, up to a tenth of the table's capacity in all. So one tenant's flood of new subjects (or a
/// load test on a sandbox key) evicts its own entries once it holds more than any other tenant, and never a sandbox
/// flood a production entry while sandbox entries remain: every active production partition keeps at least an
/// equal share.
struct PartitionedTable<State: VelocityEntry> {
    private(set) var entries: [SubjectKey: State] = [:]
    /// Entries per partition slot (slots are the shard's interned partitions).
    private var sizes: [Int] = []
    let capacity: Int
    /// Entries dropped while their windows still held counts (not those whose windows had all passed): each is a
    /// subject whose counts restart from zero, which an operator sizing `maxTracked*` needs to see. Sandbox and
    /// production apart: a sandbox load test evicts sandbox entries first, and is no reason to raise the limits.
    var evictedWithCounts: Int { evictedSandboxWithCounts + evictedProductionWithCounts }
    private(set) var evictedSandboxWithCounts = 0
    private(set) var evictedProductionWithCounts = 0

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

    /// Adds a new key, making room first if the table is full. Entries last active at or before `expiredAtOrBefore`
    /// count nothing any more; `isSandbox` tells a slot's environment.
    mutating func insert(_ key: SubjectKey, _ state: State, expiredAtOrBefore cutoff: Int64, isSandbox: (Int) -> Bool) {
        if entries.count >= capacity { makeRoom(expiredAtOrBefore: cutoff, isSandbox: isSandbox) }
        let slot = Int(state.partitionSlot)
        if slot >= sizes.count { sizes.append(contentsOf: repeatElement(0, count: slot + 1 - sizes.count)) }
        sizes[slot] += 1
        entries[key] = state
    }

    /// Frees at least a tenth of the capacity (one entry at least), so that the scans this takes are paid once per
    /// that many insertions.
    private mutating func makeRoom(expiredAtOrBefore cutoff: Int64, isSandbox: (Int) -> Bool) {
        let batch = max(1, capacity / 10)
        let expired = entries.filter { $0.value.lastActivity <= cutoff }
        for (key, state) in expired {
            entries.removeValue(forKey: key)
            sizes[Int(state.partitionSlot)] -= 1
        }
        if expired.count < batch { evict(batch - expired.count, isSandbox: isSandbox) }
    }

    private mutating func evict(_ count: Int, isSandbox: (Int) -> Bool) {
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
            .prefix(count)
        for (key, _) in oldest { entries.removeValue(forKey: key) }
        sizes[victim] -= oldest.count
        if isSandbox(victim) { evictedSandboxWithCounts += oldest.count } else { evictedProductionWithCounts += oldest.count }
    }
}

/// What a table needs of an entry to choose victims.
protocol VelocityEntry {
    var lastActivity: Int64 { get }
    var partitionSlot: Int32 { get }
}
