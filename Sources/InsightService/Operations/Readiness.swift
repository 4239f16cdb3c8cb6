import Synchronization

/// Whether the service should receive traffic: `/readyz` is 503 while starting, while draining, and while storage
/// cannot be written (re-checked at most once a second, so a disk-full period recovers by itself).
public final class Readiness: Sendable {
    public enum Phase: Int, Sendable {
        case starting = 0
        case ready = 1
        case draining = 2
    }

    private let phase = Atomic<Int>(Phase.starting.rawValue)
    private let storageCheck: @Sendable () -> Bool
    private let storage = Mutex<(checkedAt: Int64?, writable: Bool)>((nil, true))

    public init(storageCheck: @escaping @Sendable () -> Bool) {
        self.storageCheck = storageCheck
    }

    public var currentPhase: Phase { Phase(rawValue: phase.load(ordering: .acquiring)) ?? .starting }

    public func set(_ newPhase: Phase) { phase.store(newPhase.rawValue, ordering: .releasing) }

    /// Records the outcome of a real write, so readiness follows the store without extra probes under load.
    public func noteStorageWrite(succeeded: Bool, now: Int64) {
        storage.withLock { $0 = (now, succeeded) }
    }

    public func isStorageWritable(now: Int64) -> Bool {
        let cached = storage.withLock { $0 }
        if let checkedAt = cached.checkedAt, now &- checkedAt < 1000 { return cached.writable }
        let writable = storageCheck()
        storage.withLock { $0 = (now, writable) }
        return writable
    }
}
