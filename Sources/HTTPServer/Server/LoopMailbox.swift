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
    /// Set with each post, cleared by `take()`: lets the loop look for settled answers between two connections
    /// without taking the lock.
    private let posted = Atomic<Bool>(false)

    init(wakeFD: Int32) {
        self.wakeFD = wakeFD
    }

    /// Called on the settling thread. Only the first post since the loop last emptied the box writes to the
    /// eventfd, so a batch of settlements costs one wake-up. The write happens under the lock so that it cannot
    /// race `close()` and land on a reused descriptor.
    func post(_ gate: ResponseGate) {
        box.withLock { box in
            guard !box.closed else { return }
            box.gates.append(gate)
            posted.store(true, ordering: .relaxed)
            if box.gates.count == 1 {
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
