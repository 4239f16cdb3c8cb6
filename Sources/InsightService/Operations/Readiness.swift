import Glibc
import DetachedThreads
import InsightCore
import Synchronization

/// Whether the service should receive traffic: `/readyz` is 503 while starting, while draining, and while storage
/// cannot be written (re-checked at most once a second, so a disk-full period recovers by itself).
///
/// The storage check is a real write, which can wait out SQLite's busy timeout (seconds) when another process
/// holds the lock. It therefore runs off the event loop, one at a time: `/readyz` answers at once with the last
/// known state and starts a re-check when that state is older than a second (only the first answer checks in
/// place, having no earlier state to give). While storage is known to be unwritable, a thread of its own also
/// re-checks it every `recoveryCheckMilliseconds`, so recovery shows (in `/readyz`, the gauge and the log) within
/// about that time, not one probe late: a probe every 5 s would otherwise keep a recovered service out for 5 s more.
public final class Readiness: Sendable {
    public enum Phase: Int, Sendable {
        case starting = 0
        case ready = 1
        case draining = 2
    }

    private struct StorageState {
        var checkedAt: Int64?
        var writable = true
        var checking = false
        /// The recovery watch is running.
        var watching = false
    }

    private let phase = Atomic<Int>(Phase.starting.rawValue)
    private let storageCheck: @Sendable () -> Bool
    private let clock: @Sendable () -> Int64
    private let storage = Mutex(StorageState())

    private let storageChanged: @Sendable (_ writable: Bool) -> Void
    private let recoveryCheckMilliseconds: Int?

    /// `storageChanged` is told each time storage turns unwritable or writable again (not on every check), so an
    /// operator's log says when and why the service began refusing writes, and when it stopped.
    /// `recoveryCheckMilliseconds`: how often unwritable storage is re-checked without waiting for a probe (nil: only
    /// when asked, as tests that count checks want).
    public init(
        storageCheck: @escaping @Sendable () -> Bool, clock: @escaping @Sendable () -> Int64 = Clock.nowMilliseconds,
        recoveryCheckMilliseconds: Int? = nil,
        storageChanged: @escaping @Sendable (_ writable: Bool) -> Void = { _ in }
    ) {
        self.storageCheck = storageCheck
        self.clock = clock
        self.recoveryCheckMilliseconds = recoveryCheckMilliseconds
        self.storageChanged = storageChanged
    }

    /// Stores a check's outcome and tells `storageChanged` when it differs from the last one (the start counts as
    /// writable, so a service that starts on a full disk says so).
    private func record(writable: Bool, at time: Int64) {
        let changed = storage.withLock { state -> Bool in
            let changed = state.writable != writable
            state.checkedAt = time
            state.writable = writable
            state.checking = false
            return changed
        }
        if changed { storageChanged(writable) }
        if !writable { watchForRecovery() }
    }

    /// Starts the recovery watch unless it runs already: re-checks until storage is writable again or the service
    /// drains. It holds the readiness weakly, so a readiness let go of (a test's) ends it at its next turn.
    private func watchForRecovery() {
        guard let interval = recoveryCheckMilliseconds else { return }
        let start = storage.withLock { state -> Bool in
            guard !state.writable, !state.watching else { return false }
            state.watching = true
            return true
        }
        guard start else { return }
        DetachedThread.spawn(name: "storage-watch") { [weak self] in
            while true {
                usleep(UInt32(clamping: interval * 1000))
                guard let self else { return }
                let stop = self.storage.withLock { state -> Bool in
                    guard state.writable || self.currentPhase == .draining else { return false }
                    state.watching = false
                    return true
                }
                if stop { return }
                let writable = self.storageCheck()
                self.storage.withLock { $0.watching = !writable }
                self.record(writable: writable, at: self.clock())
                if writable { return }
            }
        }
    }

    public var currentPhase: Phase { Phase(rawValue: phase.load(ordering: .acquiring)) ?? .starting }

    public func set(_ newPhase: Phase) { phase.store(newPhase.rawValue, ordering: .releasing) }

    /// Records the outcome of a real write, so readiness follows the store without extra probes under load. The
    /// time is when the write ended (it may have waited seconds for a lock), not when its request began.
    public func noteStorageWrite(succeeded: Bool, now: Int64) {
        let ended = max(now, clock())
        let changed = storage.withLock { state -> Bool in
            let changed = state.writable != succeeded
            state.checkedAt = ended
            state.writable = succeeded
            return changed
        }
        if changed { storageChanged(succeeded) }
        if !succeeded { watchForRecovery() }
    }

    /// The outcome of the last write or check, without starting one: what a metrics scrape may read (a scrape must
    /// not write to the store).
    public var lastKnownStorageWritable: Bool { storage.withLock { $0.writable } }

    public func isStorageWritable(now: Int64) -> Bool {
        // The very first answer (at start-up) has nothing to fall back on: check in place.
        if storage.withLock({ $0.checkedAt == nil }) {
            let result = storageCheck()
            record(writable: result, at: clock())
            return result
        }
        let (writable, recheck) = storage.withLock { state -> (Bool, Bool) in
            let fresh = state.checkedAt.map { now &- $0 < 1000 } ?? false
            guard !fresh, !state.checking else { return (state.writable, false) }
            state.checking = true
            return (state.writable, true)
        }
        if recheck {
            // A thread of its own, not Dispatch's pool: the pool is small (one thread per core) and other blocked
            // work could hold the re-check back for longer than the lock it is waiting out.
            DetachedThread.spawn(name: "storage-check") {
                self.record(writable: self.storageCheck(), at: self.clock())
            }
        }
        return writable
    }
}
