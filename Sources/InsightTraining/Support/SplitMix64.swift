/// The trainer's only source of randomness: SplitMix64 (Steele, Lea and Flood 2014), seeded explicitly so that a
/// seed always gives the same model on every machine. Never seeded from the system.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Uniform in 0..<bound without modulo bias (Lemire's method).
    mutating func next(below bound: Int) -> Int {
        precondition(bound > 0)
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold { product = next().multipliedFullWidth(by: range) }
        }
        return Int(product.high)
    }

    /// A generator for one purpose (e.g. the rows of tree 17) derived from the seed, so that changing how one
    /// stream is used never shifts another.
    static func stream(seed: UInt64, purpose: UInt64, index: UInt64) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ (purpose &* 0xD1B5_4A32_D192_ED03))
        _ = mixer.next()
        return SplitMix64(seed: mixer.next() ^ (index &* 0x8CB9_2BA7_2F3D_8DD7))
    }
}
