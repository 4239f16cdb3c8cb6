import Glibc

/// A Bloom filter of the opt-outs that memory had no room for: a fixed number of bits, so a client key setting
/// opt-outs on millions of made-up refs cannot grow the process past it. It answers "maybe" or "no": a "maybe" is
/// settled by the store, a "no" is certain. It never forgets, so an opt-out cancelled since only costs a store
/// read for its subject until the next start rebuilds the filter from the store.
///
/// A class over memory of its own, not a value: its one owner, `AuthorizationRegistry`, reads and changes it under
/// its lock only.
final class OptOutFilter: @unchecked Sendable {
    /// Bits probed per key: about 1% of false "maybe" answers at 10 bits a key (Bloom's optimum for that ratio).
    static let probes: UInt64 = 7

    /// Reserved when the filter is made, so a size the process cannot have stops start-up rather than a client's
    /// opt-out later; zeroed by `calloc`, whose large blocks are pages the kernel maps only once a bit on them is
    /// set, so a service whose opt-outs all fit in memory never pays for them.
    private let words: UnsafeMutablePointer<UInt64>
    private let bitMask: UInt64
    /// Keys inserted since the filter was built that it did not already seem to hold: the number of distinct
    /// opt-outs it stands for while it is sparse, a little under by its false "maybe" answers, not lowered by opt-ins.
    private(set) var insertions = 0
    /// Bits set, for the estimate once the filter is no longer sparse.
    private(set) var setBits = 0

    /// `bytes` is rounded down to a power of two, at least 8; nil if that much memory cannot be reserved.
    init?(bytes: Int) {
        // At most 2^50 words, so that the bit count below cannot overflow; no machine reserves that much anyway.
        let wordCount = min(max(1, bytes / 8), 1 << 50)
        let powerOfTwo = 1 << (Int.bitWidth - 1 - wordCount.leadingZeroBitCount)
        guard let memory = calloc(powerOfTwo, MemoryLayout<UInt64>.size) else { return nil }
        words = memory.bindMemory(to: UInt64.self, capacity: powerOfTwo)
        bitMask = UInt64(powerOfTwo * 64 - 1)
    }

    deinit { free(words) }

    /// The size of the filter, after rounding.
    var bytes: Int { Int(bitMask + 1) / 8 }

    func insert(tenant: TenantID, subject: SubjectKey) {
        var (position, step) = Self.hashes(tenant: tenant, subject: subject)
        var new = false
        for _ in 0..<Self.probes {
            let bit = position & bitMask
            let word = words[Int(bit >> 6)]
            if word & (1 << (bit & 63)) == 0 {
                new = true
                setBits += 1
                words[Int(bit >> 6)] = word | 1 << (bit & 63)
            }
            position &+= step
        }
        if new { insertions += 1 }
    }

    /// About how many distinct keys were inserted. `insertions` misses a key whose bits all seemed set, which
    /// grows with the fill until it misses nearly every one: a flood into a 1 KiB filter read 3,013 while 17,000
    /// opt-outs were stored (authorization probe, 6 December), where the figure is what an operator watches for a
    /// flood. Past a quarter of the bits set (where it misses about 1 key in 16,000) the figure is estimated from
    /// the fill, -(m/k) ln(1 - X/m) for m bits of which X are set (Swamidass and Baldi), within a few percent until
    /// the filter is nearly full; with every bit set it stays at its ceiling, about (m/k) ln(m).
    var estimatedCount: Int {
        let bitCount = Double(bitMask) + 1
        guard Double(setBits) >= bitCount / 4 else { return insertions }
        let fill = min(Double(setBits), bitCount - 1) / bitCount
        let estimate = -(bitCount / Double(Self.probes)) * log(1 - fill)
        return max(insertions, Int(estimate.rounded()))
    }

    func mayContain(tenant: TenantID, subject: SubjectKey) -> Bool {
        // The common case, no opt-out past memory's capacity, costs no hashing.
        guard insertions > 0 else { return false }
        var (position, step) = Self.hashes(tenant: tenant, subject: subject)
        for _ in 0..<Self.probes {
            let bit = position & bitMask
            if words[Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
            position &+= step
        }
        return true
    }

    /// Double hashing (Kirsch and Mitzenmacher): the subject key is already a keyed MAC, so its two halves are
    /// independent and uniform; the tenant is mixed in so one subject key under two tenants probes different bits. The step
    /// is odd, so it visits distinct bits of a power-of-two table.
    private static func hashes(tenant: TenantID, subject: SubjectKey) -> (UInt64, UInt64) {
        // FNV-1a: stable across processes, unlike `Hasher`, which only matters for tests that compare runs.
        var tenantHash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in tenant.rawValue.utf8 { tenantHash = (tenantHash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let mixed = tenantHash &* 0x9e37_79b9_7f4a_7c15
        return (subject.high ^ mixed, (subject.low ^ (mixed >> 29 | mixed << 35)) | 1)
    }
}
