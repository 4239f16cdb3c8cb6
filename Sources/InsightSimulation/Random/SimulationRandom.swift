/// xoshiro256** seeded through SplitMix64: a small, fast generator whose output depends only on the seed, so
/// that the same seed gives the same data on every machine. The system generator is never used.
public struct SimulationRandom: Sendable {
    private var state0: UInt64
    private var state1: UInt64
    private var state2: UInt64
    private var state3: UInt64

    public init(seed: UInt64) {
        var mixer = SplitMix64(state: seed)
        state0 = mixer.next()
        state1 = mixer.next()
        state2 = mixer.next()
        state3 = mixer.next()
    }

    @inline(__always)
    public mutating func next() -> UInt64 {
        let result = (state1 &* 5).rotatedLeft(by: 7) &* 9
        let shifted = state1 << 17
        state2 ^= state0
        state3 ^= state1
        state1 ^= state2
        state0 ^= state3
        state2 ^= shifted
        state3 = state3.rotatedLeft(by: 45)
        return result
    }

    /// Uniform in [0, 1) with 53 random bits.
    @inline(__always)
    public mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform integer in 0..<bound (Lemire's multiply-shift; the tiny bias is irrelevant here).
    @inline(__always)
    public mutating func index(below bound: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }
}

/// SplitMix64 expands one 64-bit seed into well-mixed state words, and hashes indices into opaque refs.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension UInt64 {
    @inline(__always)
    func rotatedLeft(by count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
