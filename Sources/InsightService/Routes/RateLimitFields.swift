import HTTPServer
import InsightCore

/// The `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers): structured-field lists
/// whose items name the policy, with the quota `q` over the window `w`, and the remaining quota `r` that is back in
/// full after `t` seconds.
enum RateLimitFields {
    static func policy(_ name: String, _ limit: RateLimit) -> String {
        item(name, "q", limit.burst, "w", limit.windowSeconds)
    }

    static func current(_ name: String, remaining: Int, resetSeconds: Int) -> String {
        item(name, "r", remaining, "t", resetSeconds)
    }

    /// `"name";a=1;b=2`, written into the string's storage: every answer carries two of these, and interpolation
    /// allocated for each piece.
    private static func item(_ name: String, _ first: Unicode.Scalar, _ firstValue: Int, _ second: Unicode.Scalar, _ secondValue: Int) -> String {
        let capacity = name.utf8.count + 2 * (3 + 20) + 2
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var position = 0
            func put(_ byte: UInt8) {
                buffer[position] = byte
                position += 1
            }
            func put(_ value: Int) {
                if value < 0 { put(UInt8(ascii: "-")) }
                var magnitude = value.magnitude
                var digits = 1
                var scale: UInt = 1
                while magnitude / scale >= 10 { scale *= 10; digits += 1 }
                while digits > 0 {
                    put(UInt8(truncatingIfNeeded: 48 + magnitude / scale))
                    magnitude %= scale
                    scale /= 10
                    digits -= 1
                }
            }
            put(UInt8(ascii: "\""))
            for byte in name.utf8 { put(byte) }
            put(UInt8(ascii: "\""))
            put(UInt8(ascii: ";")); put(UInt8(first.value)); put(UInt8(ascii: "=")); put(firstValue)
            put(UInt8(ascii: ";")); put(UInt8(second.value)); put(UInt8(ascii: "=")); put(secondValue)
            return position
        }
    }

    static func apply(_ decision: RateLimitDecision, name: String, to headers: inout HTTPFields) {
        headers.set("RateLimit-Policy", policy(name, decision.limit))
        headers.set("RateLimit", current(name, remaining: decision.remaining, resetSeconds: decision.resetSeconds))
    }
}
