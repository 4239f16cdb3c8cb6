import DetachedThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Copies the WAL back into the database file on a thread and connection of its own, so the writer never waits
/// for a checkpoint's fsync (SQLite's automatic checkpoint runs inside the committing write, and showed up as
/// fdatasync stalls in the group commit). A PASSIVE checkpoint takes no lock the writer or readers need; the
/// writer starts the WAL over once a checkpoint has caught up with it.
///
/// Under sustained writes the writer nudges this thread as the WAL grows, so the frames are copied (and the two
/// fsyncs of a checkpoint paid) here, a few dozen frames behind the writer. The writer's own catch-up, which starts
/// the WAL over, then has only those few left. Left to the timer alone, the writer's catch-up copied up to
/// `GroupCommitter.walFrameLimit` frames and synced them twice while every answer waited for it: that pause, every
/// tenth of a second at 64 connections, was the evaluation route's 99th percentile.
final class Checkpointer: @unchecked Sendable {
    // `stopping`, `nudged` and `thread` are read and written only under `signal`'s lock; `connection` only by the checkpoint
    // thread.
    private let signal = Condition()
    private var stopping = false
    private var nudged = false
    private var thread: DetachedThread.Handle?
    private let connection: SQLiteConnection
    private let intervalMilliseconds: Int
    private let spacingMicroseconds: Int
    /// Asked before each checkpoint, and on every tick while idle: false skips the checkpoint (the store's files
    /// were replaced under it, and what it would copy or reset may not be what is on disk).
    private let filesIntact: @Sendable () -> Bool
    /// Asked before each checkpoint: true makes it a TRUNCATE, which also cuts the WAL file to nothing. Below the
    /// disk reserve writes are refused, and only a write restarts the WAL once a checkpoint has caught up, so the
    /// WAL a held reader or a failing checkpoint had let grow kept the disk below the reserve, and every write
    /// refused, for good after the cause was gone (fault probe, 6 December: four minutes, until a restart).
    private let walHoldsTheReserve: @Sendable () -> Bool
    private let failures = Atomic<Int>(0)
    /// How long a failed checkpoint waits before the next, whatever nudges come meanwhile.
    private let failurePauseMicroseconds: Int

    /// Checkpoints that failed with an error (the database file refusing writes); for tests.
    var failedCheckpoints: Int { failures.load(ordering: .relaxed) }

    /// `spacingMicroseconds` is the least time between two checkpoints: back to back, each would pay its two fsyncs
    /// for a handful of frames.
    init(
        path: String, intervalMilliseconds: Int = 500, spacingMicroseconds: Int = 5000,
        failurePauseMilliseconds: Int = GroupCommitter.defaultFailedCatchUpPauseMilliseconds,
        filesIntact: @escaping @Sendable () -> Bool = { true },
        walHoldsTheReserve: @escaping @Sendable () -> Bool = { false }
    ) throws {
        self.filesIntact = filesIntact
        self.walHoldsTheReserve = walHoldsTheReserve
        failurePauseMicroseconds = failurePauseMilliseconds * 1000
        connection = try SQLiteConnection(path: path)
        // Possibly the last connection to close: it must leave the WAL files in place too (see SQLiteStore).
        connection.keepWALFilesOnClose()
        // Opened only once the store has read the schema through its writer.
        connection.allowCheckpointOnClose()
        self.intervalMilliseconds = intervalMilliseconds
        self.spacingMicroseconds = spacingMicroseconds
    }

    func start() {
        let thread = DetachedThread.spawn(name: "checkpointer") { [self] in run() }
        signal.locked { self.thread = thread }
    }

    /// Stops the thread and waits (at most `GroupCommitter.stopWaitMilliseconds`) for it to leave its checkpoint:
    /// a process must not exit under it.
    func stop() {
        let thread = signal.locked {
            stopping = true
            signal.broadcastLocked()
            return self.thread
        }
        thread?.waitUntilFinished(milliseconds: GroupCommitter.stopWaitMilliseconds)
    }

    /// Asks for a checkpoint now, or once the spacing since the last one has passed. Cheap enough to call after
    /// every batch: until the thread starts its next checkpoint, later nudges find `nudged` set and return.
    func nudge() {
        signal.locked {
            guard !nudged else { return }
            nudged = true
            signal.signalLocked()
        }
    }

    private func run() {
        while true {
            let stop = signal.locked { () -> Bool in
                if !stopping && !nudged { signal.waitLocked(milliseconds: intervalMilliseconds) }
                nudged = false
                return stopping
            }
            if stop { return }
            // Checked on every tick, writes or not, so that files replaced under an idle service are noticed (and
            // said) within a tick rather than at its next write.
            guard filesIntact() else { continue }
            // A database file that refuses the copy (immutable, remounted read-only) fails every checkpoint: tried
            // every `spacingMicroseconds` behind the writer's nudges, the failures took a core's share from the
            // answers. The writer's catch-up, which says so in the log, waits as long between its attempts.
            // A TRUNCATE waits (SQLite's busy timeout, on this thread only) for readers of older snapshots and holds
            // new writers back meanwhile; it runs only while writes are refused for the reserve anyway.
            let mode = walHoldsTheReserve() ? "TRUNCATE" : "PASSIVE"
            let failed = (try? connection.execute("PRAGMA wal_checkpoint(\(mode))")) == nil
            if failed { failures.add(1, ordering: .relaxed) }
            let spacing = failed ? failurePauseMicroseconds : spacingMicroseconds
            let spaced = signal.locked { () -> Bool in
                let deadline = Condition.deadline(microsecondsFromNow: spacing)
                // Nudges that come meanwhile leave `nudged` set, so the next checkpoint follows the spacing at once.
                while !stopping && signal.waitLocked(until: deadline) {}
                return !stopping
            }
            if !spaced { return }
        }
    }
}
