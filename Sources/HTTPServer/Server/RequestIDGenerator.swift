/// Request IDs: the client's `X-Request-ID` when it is 1...128 visible ASCII characters, holds none of
/// `refusedMarkers` anywhere (in any letter case) and, when it mixes upper and lower case letters, fewer than
/// `refusedLetterAndDigitCount` letters and digits, else 16 random bytes in hex. IDs are correlators, not secrets, so a fast generator seeded
/// from the system one is enough.
struct RequestIDGenerator {
    private var generator: SplitMix64
    /// Lowercased.
    private let refusedMarkers: [[UInt8]]

    /// See `HTTPServerConfiguration.requestIDRefusedLetterAndDigitCount`.
    private let refusedLetterAndDigitCount: Int

    init(
        seed: UInt64 = UInt64.random(in: .min ... .max), refusedMarkers: [String] = [], refusedLetterAndDigitCount: Int? = nil
    ) {
        generator = SplitMix64(state: seed)
        self.refusedMarkers = refusedMarkers.filter { !$0.isEmpty }.map { Array($0.lowercased().utf8) }
        self.refusedLetterAndDigitCount = refusedLetterAndDigitCount.map { max(1, $0) } ?? Int.max
    }

    static func isAcceptable(_ candidate: String) -> Bool {
        let utf8 = candidate.utf8
        return (1...128).contains(utf8.count) && utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }
    }

    mutating func requestID(incoming: String?) -> String {
        if let incoming, Self.isAcceptable(incoming), !refuses(incoming) { return incoming }
        return generate()
    }

    /// Whether `candidate` holds what looks like an API key, so it is neither kept as an ID nor repeated elsewhere
    /// (a refused field's name). A key pasted after other text (`order-7 ti_sandbox_...`, `x<key>`) is as much a
    /// secret as one pasted alone. Called on short ASCII text (an acceptable ID is at most 128 bytes), so it scans
    /// the string's own UTF-8 in place rather than copying it into an array on every request that carries an ID.
    func refuses(_ candidate: String) -> Bool {
        guard !refusedMarkers.isEmpty || refusedLetterAndDigitCount <= 128 else { return false }
        var candidate = candidate
        return candidate.withUTF8 { bytes in
            // Judged on the decoded text too: a key with every character escaped (`%4A%4B...`) is digits and one
            // case of letters as written, and was kept and logged (security probe, 6 December). Twice decoded, for
            // a marker escaped twice (`%2574%2569...`); a value with no `%` costs nothing more.
            guard bytes.contains(UInt8(ascii: "%")) else { return isRefused(bytes: bytes) }
            let once = Self.percentDecoded(bytes)
            let twice = once.withUnsafeBufferPointer { Self.percentDecoded($0) }
            return isRefused(bytes: bytes) || once.withUnsafeBufferPointer { isRefused(bytes: $0) }
                || twice.withUnsafeBufferPointer { isRefused(bytes: $0) }
        }
    }

    /// `bytes` with each `%` and two hex digits replaced by the byte they name; anything else as it is.
    static func percentDecoded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return decoded
    }

    private func isRefused(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Counted over the whole value, not in runs: separators changed or percent-encoded would break a run
        // (regression probe, 6 December). A random part mixes the cases all but surely (without one of them:
        // about 2 in 10^10); a hex digest, a UUID or a traceparent never does, and those are kept.
        var lettersAndDigits = 0
        var hasUpper = false, hasLower = false
        for byte in bytes {
            let isUpper = byte >= 0x41 && byte <= 0x5A, isLower = byte >= 0x61 && byte <= 0x7A
            if isUpper || isLower || (byte >= 0x30 && byte <= 0x39) { lettersAndDigits += 1 }
            hasUpper = hasUpper || isUpper
            hasLower = hasLower || isLower
        }
        if lettersAndDigits >= refusedLetterAndDigitCount && hasUpper && hasLower { return true }
        return refusedMarkers.contains { marker in
            guard bytes.count >= marker.count else { return false }
            return (0...(bytes.count - marker.count)).contains { start in
                marker.indices.allSatisfy { offset in
                    let byte = bytes[start + offset]
                    let lowered = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                    return lowered == marker[offset]
                }
            }
        }
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
