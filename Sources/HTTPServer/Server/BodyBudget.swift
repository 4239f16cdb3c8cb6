import Synchronization

/// Bytes of large request bodies all connections may hold at once. Each connection's body is bounded by its route's
/// limit, but without a bound across connections 64 clients each sending an 8 MiB label batch took the process to
/// 650 MB and slowed `/healthz` to 5 s (resources probe, 6 December). A body over `reservedAbove` reserves its
/// declared length (a chunked one, its route's limit) before a byte of it is read; one that does not fit is answered
/// `503` with `Retry-After` and its bytes are never buffered.
final class BodyBudget: Sendable {
    /// Bodies up to this size take no reservation: an evaluation's (under 2 KiB as apps send them) is below it, and
    /// what they can hold, this much per connection, is bounded by the connection cap. It was 64 KiB: 10,000
    /// connections each sending all but the last bytes of a 64 KiB evaluation held 1.3-1.6 GB, over the 1 GiB the
    /// deployment gives the process (resources probe, 6 December).
    static let reservedAbove = 8_192
    /// Bodies over this (label batches, by default only they) reserve from the server's large budget; the others
    /// that reserve at all, from its small one. One budget for both let any client key, holding unfinished
    /// evaluations of 8 to 64 KiB on a few thousand connections, take all of it: a partner's label upload was then
    /// answered 503 (regression probe, 6 December).
    static let largeAbove = 65_536

    /// The small budget beside a large one of `total` bytes: an eighth of it (32 MiB at the default 256 MiB), and no
    /// less than the whole of a budget of 1 MiB or less.
    static func smallTotal(besideLarge total: Int) -> Int { max(total / 8, min(total, 1 << 20)) }

    let total: Int
    private let remaining: Atomic<Int>

    init(total: Int) {
        self.total = max(0, total)
        remaining = Atomic(self.total)
    }

    /// Room for a body of `bytes`, held until the reservation is released; nil when the bytes would not fit. A body
    /// larger than the whole budget (a route limit set above it) is admitted when nothing else is reserved.
    func reserve(_ bytes: Int) -> Reservation? {
        let taken = min(bytes, total)
        var current = remaining.load(ordering: .relaxed)
        while current >= taken {
            let (exchanged, original) = remaining.compareExchange(
                expected: current, desired: current - taken, ordering: .acquiringAndReleasing)
            if exchanged { return Reservation(budget: self, bytes: taken) }
            current = original
        }
        return nil
    }

    /// Bytes reserved now.
    var reservedBytes: Int { total - remaining.load(ordering: .relaxed) }

    fileprivate func release(_ bytes: Int) {
        remaining.add(bytes, ordering: .acquiringAndReleasing)
    }

    /// Gives its bytes back when the request that holds it is dropped, whichever way that happens (answered, failed,
    /// timed out, or its connection closed), so no path can leak a reservation.
    final class Reservation {
        private let budget: BodyBudget
        let bytes: Int

        fileprivate init(budget: BodyBudget, bytes: Int) {
            self.budget = budget
            self.bytes = bytes
        }

        deinit { budget.release(bytes) }
    }
}
