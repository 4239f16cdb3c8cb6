import Glibc
import Synchronization

/// A one-way flag a handler raises and a test waits for: lets a test act once the server has reached a point,
/// instead of sleeping for a guess that a slow build on a loaded machine outlasts.
final class Signal: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() {
        raised.store(true, ordering: .releasing)
    }

    /// True once raised; false if `timeout` passed first.
    func wait(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !raised.load(ordering: .acquiring) {
            if ContinuousClock.now >= deadline { return false }
            usleep(2_000)
        }
        return true
    }
}
