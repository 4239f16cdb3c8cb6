/// A Bloom filter of the opt-outs that memory had no room for: a fixed number of bits, so a client key setting
/// opt-outs on millions of made-up refs cannot grow the process past it. It answers "maybe" or "no": a "maybe" is
/// settled by the store, a "no" is certain. It never forgets, so an opt-out cancelled since only costs a store
/// read for its subject until the next start rebuilds the filter from the store.
struct OptOutFilter: Sendable {
    /// Bits probed per key: about 1% of false "maybe" answers at 10 bits a key (Bloom's optimum for that ratio).
    static let probes: UInt64 = 7

    private var words: [UInt64] = []
    private let bitMask: UInt64
    /// Keys inserted since the filter was built, counted again when inserted again: an upper bound of the opt-outs
    /// it stands for.
    private(set) var insertions = 0

    /// `bytes` is rounded down to a power of two, at least 8. The bits are allocated by the first insertion, so a
    /// service whose opt-outs all fit in memory never pays for them.
    init(bytes: Int) {
        let wordCount = max(1, bytes / 8)
        let powerOfTwo = 1 << (Int.bitWidth - 1 - wordCount.leadingZeroBitCount)
        bitMask = UInt64(powerOfTwo * 64 - 1)
    }

    var isEmpty: Bool { insertions == 0 }

    /// The bits allocated so far.
    var allocatedBytes: Int { words.count * 8 }

    mutating func insert(tenant: TenantID, subject: SubjectKey) {
        if words.isEmpty { words = Array(repeating: 0, count: Int(bitMask + 1) / 64) }
        var (position, step) = Self.hashes(tenant: tenant, subject: subject)
        for _ in 0..<Self.probes {
            let bit = position & bitMask
            words[Int(bit >> 6)] |= 1 << (bit & 63)
            position &+= step
        }
        insertions += 1
    }

    func mayContain(tenant: TenantID, subject: SubjectKey) -> Bool {
        guard !words.isEmpty else { return false }
        var (position, step) = Self.hashes(tenant: tenant, subject: subject)
        for _ in 0..<Self.probes {
            let bit = position & bitMask
            if words[Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
            position &+= step
        }
        return true
    }

    /// Double hashing (Kirsch and Mitzenmacher): the subject key is already a keyed MAC, so its two halves are
    /// independent and uniform; the tenant is mixed in so one tenant's subject never stands for another's. The step
    /// is odd, so it visits distinct bits of a power-of-two table.
    private static func hashes(tenant: TenantID, subject: SubjectKey) -> (UInt64, UInt64) {
        // FNV-1a: stable across processes, unlike `Hasher`, which only matters for tests that compare runs.
        var tenantHash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in tenant.rawValue.utf8 { tenantHash = (tenantHash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let mixed = tenantHash &* 0x9e37_79b9_7f4a_7c15
        return (subject.high ^ mixed, (subject.low ^ (mixed >> 29 | mixed << 35)) | 1)
    }
}
