/// Request IDs: the client's `X-Request-ID` when it is 1...128 visible ASCII characters and does not begin with one
/// of `refusedPrefixes`, else 16 random bytes in hex. IDs are correlators, not secrets, so a fast generator seeded
/// from the system one is enough.
struct RequestIDGenerator {
    private var generator: SplitMix64
    private let refusedPrefixes: [[UInt8]]

    init(seed: UInt64 = UInt64.random(in: .min ... .max), refusedPrefixes: [String] = []) {
        generator = SplitMix64(state: seed)
        self.refusedPrefixes = refusedPrefixes.map { Array($0.utf8) }
    }

    static func isAcceptable(_ candidate: String) -> Bool {
        let utf8 = candidate.utf8
        return (1...128).contains(utf8.count) && utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }
    }

    mutating func requestID(incoming: String?) -> String {
        if let incoming, Self.isAcceptable(incoming), !isRefused(incoming) { return incoming }
        return generate()
    }

    private func isRefused(_ candidate: String) -> Bool {
        refusedPrefixes.contains { candidate.utf8.starts(with: $0) }
    }

    mutating func generate() -> String {
        @inline(__always) func hexDigit(_ value: UInt64) -> UInt8 {
            value < 10 ? UInt8(ascii: "0") + UInt8(value) : UInt8(ascii: "a") + UInt8(value - 10)
        }
        let high = generator.next()
        let low = generator.next()
        return String(unsafeUninitializedCapacity: 32) { buffer in
            for index in 0..<16 {
                buffer[index] = hexDigit((high >> UInt64(60 - index * 4)) & 0xF)
                buffer[16 + index] = hexDigit((low >> UInt64(60 - index * 4)) & 0xF)
            }
            return 32
        }
    }
}

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
