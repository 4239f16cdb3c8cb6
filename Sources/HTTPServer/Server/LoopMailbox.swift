import Glibc
import Synchronization

/// Where other threads leave settled response gates for one event loop, waking it through its eventfd.
final class LoopMailbox: Sendable {
    private struct Box {
        var gates: [ResponseGate] = []
        /// Set when the loop has stopped: its eventfd is about to be closed and its number may be reused.
        var closed = false
    }

    private let wakeFD: Int32
    private let box = Mutex(Box())
    /// The loop's own thread, once it runs: a post made there needs no wake-up, since the loop looks at `hasPosts`
    /// after handling each connection, after its end-of-pass work and before it waits. Set once, before any post
    /// from that thread; other threads only compare against it.
    private let owner = Atomic<UInt>(0)
    /// Set with each post, cleared by `take()`: lets the loop look for settled answers between two connections
    /// without taking the lock.
    private let posted = Atomic<Bool>(false)

    init(wakeFD: Int32) {
        self.wakeFD = wakeFD
    }

    /// Called by the loop's thread before it handles anything.
    func ownerStarted() {
        owner.store(UInt(pthread_self()), ordering: .releasing)
    }

    /// Called on the settling thread. Only the first post since the loop last emptied the box writes to the
    /// eventfd, so a batch of settlements costs one wake-up, and a post from the loop's own thread (a commit at the
    /// end of its pass) none. The write happens under the lock so that it cannot race `close()` and land on a
    /// reused descriptor.
    func post(_ gate: ResponseGate) {
        let fromOwner = owner.load(ordering: .acquiring) == UInt(pthread_self())
        box.withLock { box in
            guard !box.closed else { return }
            box.gates.append(gate)
            posted.store(true, ordering: .relaxed)
            if box.gates.count == 1 && !fromOwner {
                var one: UInt64 = 1
                _ = write(wakeFD, &one, 8)
            }
        }
    }

    var hasPosts: Bool { posted.load(ordering: .relaxed) }

    func take() -> [ResponseGate] {
        box.withLock { box in
            posted.store(false, ordering: .relaxed)
            let taken = box.gates
            box.gates.removeAll(keepingCapacity: true)
            return taken
        }
    }

    /// The loop has stopped; later posts are dropped (their connections are gone).
    func close() {
        box.withLock { $0.closed = true }
    }
}
