/// Opaque synthetic subject refs for one session, chosen so that the service, counting them itself, sees the
/// patterns the velocity draw describes: a burst reuses one account, a new device is a second device of the
/// account, a mule is one of a few counterparties shared by many victims, an established payee recurs.
struct SubjectDraw: Sendable, Hashable {
    var account: UInt64
    var device: UInt64
    var counterparty: UInt64?

    static let accountPool = 200_000
    static let mulePool = 64
    static let popularPool = 500

    var refs: (accountRef: String, deviceRef: String, counterpartyRef: String?) {
        (Self.render("acct", account), Self.render("dev", device), counterparty.map { Self.render("cp", $0) })
    }

    static func render(_ prefix: String, _ value: UInt64) -> String {
        let hex = String(SplitMix64.mix(value), radix: 16)
        return prefix + "_" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Remembers the running burst of each label, so that consecutive burst sessions share an account.
struct SubjectState: Sendable {
    private var burstAccount: [UInt64?] = [nil, nil]
    private var burstRemaining: [Int] = [0, 0]

    mutating func draw(
        coached: Bool, velocity: VelocityDraw, novelty: Int, random: inout SimulationRandom
    ) -> SubjectDraw {
        let lane = coached ? 1 : 0
        let account: UInt64
        if velocity.burst, let running = burstAccount[lane], burstRemaining[lane] > 0 {
            account = running
            burstRemaining[lane] -= 1
        } else {
            account = UInt64(random.index(below: SubjectDraw.accountPool))
            if velocity.burst {
                burstAccount[lane] = account
                burstRemaining[lane] = velocity.evaluations10m - 1
            }
        }
        let device = velocity.newDevice
            ? account &* 16 &+ 1 &+ UInt64(random.index(below: 4)) : account &* 16
        var counterparty: UInt64?
        if velocity.hasCounterparty {
            let tag: UInt64
            if velocity.muleCounterparty {
                // A few mules receive most of the money: squaring a uniform skews towards low indices.
                let u = random.uniform()
                tag = 0x1000_0000 + UInt64(Double(SubjectDraw.mulePool) * u * u)
            } else if velocity.popularCounterparty {
                tag = 0x2000_0000 + UInt64(random.index(below: SubjectDraw.popularPool))
            } else if novelty == 2 {
                tag = 0x3000_0000_0000 + account &* 8 &+ UInt64(random.index(below: 8))
            } else {
                tag = 0x4000_0000_0000_0000 | (random.next() >> 2)
            }
            counterparty = tag
        }
        return SubjectDraw(account: account &+ 0x5000_0000_0000_0000, device: device, counterparty: counterparty)
    }
}
