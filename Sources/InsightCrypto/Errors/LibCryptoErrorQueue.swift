import CCrypto

/// libcrypto reports failures on a per-thread error queue. Reading it right after a failing call, and emptying it,
/// keeps a stale reason from being blamed on a later, unrelated call on the same thread.
enum LibCryptoErrorQueue {
    /// The reason of the earliest queued error (the root cause), then empties the queue.
    static func drainReason() -> String {
        var reason: String?
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            if reason == nil {
                if let text = ERR_reason_error_string(code) {
                    reason = String(cString: text)
                } else {
                    reason = "reason \(ti_ERR_GET_REASON(code))"
                }
            }
        }
        return reason ?? "no reason given"
    }

    static func error(_ operation: String) -> CryptoError {
        .libcrypto(operation: operation, reason: drainReason())
    }

    /// For calls whose failure is an expected answer (a bad signature), not an error worth a reason.
    static func discard() {
        ERR_clear_error()
    }
}
