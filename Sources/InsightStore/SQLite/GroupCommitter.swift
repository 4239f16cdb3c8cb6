import DetachedThreads
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Batches writes from many threads into one transaction on a dedicated writer thread, or, for held writes when
/// `releasersCommit` is set, on the thread that ends the hold (`commitHeldWrites()`). `submit` returns at once
/// and calls back once the write is committed (the service holds its answer until then); `perform` waits for it.
/// Whatever queues up while a batch commits goes into the next one, so batches grow with load and the WAL pages
/// each commit writes are shared by more writes.
///
/// One failing write is rolled back alone and reported to its own caller while the rest of the batch commits. A
/// batch first runs without savepoints (each one cost the writer two statements and a copy of every page the write
/// touched); only if a write fails is the whole transaction rolled back and run again with each write inside a
/// SAVEPOINT of its own. So a write may run twice: it must depend only on the database and its own captures, and
/// it must overwrite, not accumulate, anything it hands to its completion.
///
/// What a write adds to per-batch state outside the database (counts folded into one upsert per batch instead of
/// one per row) goes in its `written` closure, which runs only once the write is part of the transaction for good;
/// `BatchHooks` then writes that state before the COMMIT, or forgets it when the transaction is rolled back.
public final class GroupCommitter: Sendable {
    public typealias Write = (SQLiteConnection) throws -> Void
    public typealias Completion = @Sendable (Result<Void, any Error>) -> Void

    /// Per-batch work on the writer thread, around the writes' `written` closures.
    public struct BatchHooks: Sendable {
        /// Runs inside the transaction after every write, just before COMMIT; throwing fails the whole batch.
        public var beforeCommit: @Sendable (SQLiteConnection) throws -> Void
        /// Runs after a transaction is rolled back: what the `written` closures added since the last
        /// `beforeCommit` belongs to writes that are gone.
        public var afterRollback: @Sendable () -> Void
        /// Told of each error a write, a commit or a checkpoint met (not of the precondition's refusals).
        public var failed: @Sendable (any Error) -> Void

        public init(
            beforeCommit: @escaping @Sendable (SQLiteConnection) throws -> Void = { _ in },
            afterRollback: @escaping @Sendable () -> Void = {},
            failed: @escaping @Sendable (any Error) -> Void = { _ in }
        ) {
            self.beforeCommit = beforeCommit
            self.afterRollback = afterRollback
            self.failed = failed
        }
    }

    private let engine: Engine
    private let thread: DetachedThread.Handle
    public var maximumBatch: Int { engine.maximumBatch }

    /// `precondition` runs before each batch; an error it returns fails the whole batch without touching the
    /// database (the store uses it to keep a free-space reserve).
    ///
    /// `walFrameLimit` bounds the WAL under sustained writes. A checkpoint running beside a writer that never
    /// pauses never catches up with it, and SQLite starts the WAL over only once one has: the file grew without
    /// bound (1 GB in 12 s of evaluations), and every new page of it cost the kernel a block allocation and a
    /// zeroed page. Past the limit, the writer pauses between batches for a checkpoint of its own, so its next
    /// commit can start the WAL from the beginning. 0 turns this off.
    ///
    /// The default is SQLite's own automatic checkpoint size. Measured on the evaluation route at 64 connections:
    /// 512 frames gave p99 8.9 ms, 2048 gave 11-12 ms, 8192 gave 23 ms (a longer catch-up holds more answers), and
    /// no limit 12.6 ms at 0.84x the throughput.
    ///
    /// `commitWindowMicroseconds` trades a bounded delay for larger batches under load. A commit costs the writer
    /// about 60 µs whatever it holds (WAL frames, locks, wake-ups) and each evaluation about 14 µs more; left to
    /// itself the writer wakes for every few writes (4.8 per batch at 64 connections). After a batch of more than
    /// one write, the writer waits up to this long for the next one to fill (or to reach `maximumBatch`). A lone
    /// write after a lone write, the quiet case, is never held back; the window adds at most its own length to
    /// any write's wait. 0 commits whatever is queued at once.
    ///
    /// Measured at 64 connections (docs/BENCHMARKS.md): 250 µs cut the server's CPU per evaluation by 7% but, on a
    /// quiet machine, gained 1-3% in requests/s and added about 1 ms to p99, as completions leave in bursts. The
    /// service leaves it off unless configured (`commitWindowMicroseconds`).
    ///
    /// `walGrowing` is called after a batch that leaves at least a quarter of `walFrameLimit` frames in the WAL: the
    /// store nudges its checkpoint thread with it, so that most frames are copied back beside the writer rather than
    /// in its catch-up (see `Checkpointer`).
    ///
    /// `maximumHoldMicroseconds` bounds how long a write submitted with `heldForRelease` waits for a
    /// `releaseHeldWrites()`: past it, the writer commits the queue anyway and counts it in `holdsExpired`. A burst
    /// that lasts longer than the hold is cut short that way now and then (an event loop's pass under heavy load);
    /// when nearly every batch ends that way, nobody is releasing.
    ///
    /// `releasersCommit`: held writes are committed by the thread that ends the hold, with `commitHeldWrites()`,
    /// instead of by the writer thread. The writer is then not woken for a held write at all and no hold limit
    /// applies: the releaser must come (the service's event loops release at the end of every pass). An event loop
    /// that commits its own pass's records answers them in the same pass; handing them to the writer cost two
    /// thread wake-ups per batch, a third of the writer's CPU (docs/BENCHMARKS.md, "The event loop commits its own records, and one row per evaluation").
    ///
    /// `failedCatchUpPauseMilliseconds`: after a catch-up fails (the database file refusing writes), the next is tried
    /// no sooner than this. Tried after every batch instead, the failures cost a loaded service over half its
    /// throughput while the WAL grew (operator probe, 6 December). The checkpoint thread goes on trying on its own
    /// timer, and the end of the failures is still told as soon as a commit finds the WAL started over.
    public static let defaultFailedCatchUpPauseMilliseconds = 1000

    public init(
        connection: SQLiteConnection, maximumBatch: Int = 512, walFrameLimit: Int = 1000,
        commitWindowMicroseconds: Int = 0, maximumHoldMicroseconds: Int = 2000, releasersCommit: Bool = false,
        failedCatchUpPauseMilliseconds: Int = GroupCommitter.defaultFailedCatchUpPauseMilliseconds,
        hooks: BatchHooks = BatchHooks(), walGrowing: @escaping @Sendable () -> Void = {},
        checkpointFailing: @escaping @Sendable (_ error: String?) -> Void = { _ in },
        precondition: @escaping @Sendable () -> (any Error)? = { nil }
    ) {
        connection.trackWALFrames()
        engine = Engine(
            connection: connection, maximumBatch: maximumBatch, walFrameLimit: walFrameLimit,
            commitWindowMicroseconds: max(0, commitWindowMicroseconds),
            maximumHoldMicroseconds: max(0, maximumHoldMicroseconds), releasersCommit: releasersCommit,
            failedCatchUpPauseNanoseconds: UInt64(max(0, failedCatchUpPauseMilliseconds)) * 1_000_000, hooks: hooks,
            walGrowing: walGrowing, checkpointFailing: checkpointFailing, precondition: precondition)
        let engine = self.engine
        thread = DetachedThread.spawn(name: "store-writer") { engine.run() }
    }

    deinit {
        // The thread holds only the engine; it commits what is queued, then exits, and the owner waits for that
        // (a process exiting under it crashed), for at most `stopWaitMilliseconds`.
        engine.stop()
        thread.waitUntilFinished(milliseconds: Self.stopWaitMilliseconds)
    }

    /// How long releasing the committer waits for its thread to commit what is queued and close.
    static let stopWaitMilliseconds = 30_000

    /// Queues `write` for the next group transaction; `completion` runs on the writer thread once it is committed
    /// or has failed. Keep completions short: the next batch waits for them. `written` runs on the writer thread
    /// once `write` has succeeded and will stay in its transaction (unless the whole transaction is rolled back, in
    /// which case `hooks.afterRollback` follows).
    ///
    /// A write `heldForRelease` does not wake the writer: it waits in the queue until `releaseHeldWrites()`, until a
    /// write that is not held arrives, or until `maximumHoldMicroseconds` have passed since the queue's oldest write,
    /// whichever comes first. A thread that produces writes in bursts (an event loop handling one pass of ready
    /// connections) holds each one and releases them together at the end of the burst, so they share one commit
    /// instead of the writer waking for the first of them and committing the rest a few at a time.
    public func submit(
        _ write: @escaping Write, written: (() -> Void)? = nil, heldForRelease: Bool = false,
        completion: @escaping Completion
    ) {
        engine.enqueue(Ticket(write, written: written, completion), held: heldForRelease)
    }

    /// Lets the writer commit the held writes now (with nothing held, it does nothing).
    public func releaseHeldWrites() {
        engine.release()
    }

    /// Ends the hold and commits every queued write on the calling thread, completions included, in batches of at
    /// most `maximumBatch`. If another thread is committing (another releaser, or the writer), this returns at
    /// once: that thread looks at the queue again once it lets go of the connection, and takes these writes too.
    /// So a releaser never waits for another's commit, and two event loops ending their passes together share one.
    public func commitHeldWrites() {
        engine.commitOnCallingThread()
    }

    /// Runs `write` in the next group transaction and returns once it is committed (or throws its error).
    public func perform(_ write: @escaping Write) throws {
        let latch = Latch()
        engine.enqueue(Ticket(write, written: nil) { latch.set($0) }, held: false)
        try latch.wait().get()
    }

    /// Runs `body` with exclusive use of the write connection (migrations, maintenance).
    public func withConnection<T>(_ body: (SQLiteConnection) throws -> T) rethrows -> T {
        defer { engine.wakeWriterForReleasedWrites() }
        return try engine.connectionLock.withLock { _ in try body(engine.connection) }
    }

    /// Transactions the writer has run to COMMIT (or failed whole).
    public var batchesCommitted: Int { engine.batchesCommitted }
    /// Writes committed: divided by `batchesCommitted`, the average batch an operator sees under load.
    public var writesCommitted: Int { engine.writesCommitted }
    /// Checkpoints the writer ran itself because the WAL passed `walFrameLimit`.
    public var checkpointCatchUps: Int { engine.checkpointCatchUps }
    /// Catch-up checkpoints that failed with an error (the database file refusing writes).
    public var checkpointFailures: Int { engine.checkpointFailures }
    /// The last catch-up's error while catch-ups fail; nil once one succeeds.
    public var failingCheckpoint: String? { engine.failingCheckpoint }
    /// Frames in the WAL after the last commit: pages written since the last checkpoint that started it over.
    public var walFrames: Int { engine.walFrames }
    /// Batches the writer took because held writes waited `maximumHoldMicroseconds` without a release.
    public var holdsExpired: Int { engine.holdsExpired }
}

private final class Ticket: @unchecked Sendable {
    // Created by one thread, then touched only by the writer thread.
    let write: GroupCommitter.Write
    let written: (() -> Void)?
    let completion: GroupCommitter.Completion
    init(_ write: @escaping GroupCommitter.Write, written: (() -> Void)?, _ completion: @escaping GroupCommitter.Completion) {
        self.write = write
        self.written = written
        self.completion = completion
    }
}

/// The writer thread's side: the queue, the connection and the commit loop.
private final class Engine: @unchecked Sendable {
    // `connection` is used only under `connectionLock`; the queue only under `signal`'s mutex.
    let connection: SQLiteConnection
    let connectionLock = Mutex(())
    let maximumBatch: Int
    let walFrameLimit: Int
    let commitWindowMicroseconds: Int
    private let signal = Condition()
    private var queue: [Ticket] = []
    private var stopping = false
    /// The writer is asleep on the condition: only then does a new write need to signal it (a futex call and a
    /// context switch per write showed up in profiles).
    private var writerWaiting = false
    /// The writer is waiting out the commit window: a new write wakes it only once the batch is full.
    private var writerGathering = false
    let maximumHoldMicroseconds: Int
    /// Held writes are committed by their releaser (`commitOnCallingThread`), never woken for.
    let releasersCommit: Bool
    /// The queue may be committed: it holds a write that was not held, or its held writes were released.
    private var released = false
    /// When the queue last went from empty to not empty: held writes wait at most `maximumHoldMicroseconds` from then.
    private var queueStartedAt = timespec()
    /// A releaser's commit left the WAL past `walFrameLimit`: the writer thread catches up.
    private var catchUpWanted = false
    private let expiredHolds = Atomic<Int>(0)
    private let batches = Atomic<Int>(0)
    private let writes = Atomic<Int>(0)
    private let catchUps = Atomic<Int>(0)
    private let checkpointErrors = Atomic<Int>(0)
    /// `checkpointError` is set: read on every batch without taking its lock.
    private let checkpointsFailing = Atomic<Bool>(false)
    /// Frames in the WAL after the last commit, for `/metrics`.
    private let framesInWAL = Atomic<Int>(0)
    /// Why the last catch-up failed, until one succeeds: nil while checkpoints work.
    private let checkpointError = Mutex<String?>(nil)
    /// While catch-ups fail, the next is tried no sooner than this (CLOCK_MONOTONIC, nanoseconds); writer thread only.
    private var nextCatchUpAfterFailure: UInt64 = 0
    private let failedCatchUpPauseNanoseconds: UInt64
    private let precondition: @Sendable () -> (any Error)?
    private let hooks: GroupCommitter.BatchHooks
    private let walGrowing: @Sendable () -> Void
    /// Told when catch-ups start failing (with the error) and when one succeeds again (nil), not on every attempt.
    private let checkpointFailing: @Sendable (String?) -> Void

    init(
        connection: SQLiteConnection, maximumBatch: Int, walFrameLimit: Int, commitWindowMicroseconds: Int,
        maximumHoldMicroseconds: Int, releasersCommit: Bool, failedCatchUpPauseNanoseconds: UInt64, hooks: GroupCommitter.BatchHooks,
        walGrowing: @escaping @Sendable () -> Void, checkpointFailing: @escaping @Sendable (String?) -> Void,
        precondition: @escaping @Sendable () -> (any Error)?
    ) {
        self.checkpointFailing = checkpointFailing
        self.failedCatchUpPauseNanoseconds = failedCatchUpPauseNanoseconds
        self.releasersCommit = releasersCommit
        self.walGrowing = walGrowing
        self.connection = connection
        self.maximumHoldMicroseconds = maximumHoldMicroseconds
        self.maximumBatch = maximumBatch
        self.walFrameLimit = walFrameLimit
        self.commitWindowMicroseconds = commitWindowMicroseconds
        self.hooks = hooks
        self.precondition = precondition
    }

    var batchesCommitted: Int { batches.load(ordering: .relaxed) }
    var writesCommitted: Int { writes.load(ordering: .relaxed) }
    var checkpointCatchUps: Int { catchUps.load(ordering: .relaxed) }
    var checkpointFailures: Int { checkpointErrors.load(ordering: .relaxed) }
    var failingCheckpoint: String? { checkpointError.withLock { $0 } }
    var walFrames: Int { framesInWAL.load(ordering: .relaxed) }
    var holdsExpired: Int { expiredHolds.load(ordering: .relaxed) }

    func enqueue(_ ticket: Ticket, held: Bool) {
        signal.locked {
            let first = queue.isEmpty
            if first { queueStartedAt = Condition.deadline(microsecondsFromNow: 0) }
            queue.append(ticket)
            if !held { released = true }
            // The first write into an empty queue wakes a waiting writer even when held: it must start the timed
            // wait that bounds the hold. Later held writes leave it asleep (a released queue has woken it already),
            // and so does every held write that its releaser commits.
            let wakes = held ? first && !releasersCommit : released
            if (writerWaiting && wakes) || (writerGathering && queue.count >= maximumBatch) {
                signal.signalLocked()
            }
        }
    }

    func release() {
        signal.locked {
            guard !queue.isEmpty, !released else { return }
            released = true
            if writerWaiting { signal.signalLocked() }
        }
    }

    /// The releaser's commit (see `GroupCommitter.commitHeldWrites`). Whoever holds the connection lock looks at
    /// the queue again after letting go of it, under the queue's lock: a releaser that found the connection taken
    /// had queued its writes before trying, so they are seen then.
    func commitOnCallingThread() {
        let queued = signal.locked { () -> Bool in
            guard !queue.isEmpty else { return false }
            released = true
            return true
        }
        guard queued else { return }
        while true {
            let committed: (batch: [Ticket], outcomes: [Result<Void, any Error>])?? = connectionLock.withLockIfAvailable { _ in
                guard let batch = signal.locked({ takeReleasedBatchLocked() }) else { return nil }
                let outcomes = commitBatch(batch)
                if walFrameLimit > 0 { noteWALLength(catchingUp: false) }
                return (batch, outcomes)
            }
            switch committed {
            case nil:
                return
            case let (batch, outcomes)??:
                complete(batch, outcomes)
            case .some(nil):
                if !(signal.locked { released && !queue.isEmpty }) { return }
            }
        }
    }

    /// After the connection was held for maintenance: writes a releaser queued meanwhile found the lock taken and
    /// left for whoever held it, so the writer takes them.
    func wakeWriterForReleasedWrites() {
        signal.locked {
            if released && !queue.isEmpty && writerWaiting { signal.signalLocked() }
        }
    }

    /// Up to `maximumBatch` writes from the queue's head if it may be committed; the rest stays released.
    private func takeReleasedBatchLocked() -> [Ticket]? {
        guard released, !queue.isEmpty else { return nil }
        let taken = Array(queue.prefix(maximumBatch))
        queue.removeFirst(taken.count)
        released = !queue.isEmpty
        if released { queueStartedAt = Condition.deadline(microsecondsFromNow: 0) }
        return taken
    }

    func stop() {
        signal.locked {
            stopping = true
            signal.signalLocked()
        }
    }

    func run() {
        var previousBatch = 0
        while true {
            let next: (batch: [Ticket], catchUp: Bool)? = signal.locked {
                if previousBatch > 1 && commitWindowMicroseconds > 0 { gatherLocked() }
                let mayCommit = awaitBatchLocked()
                let catchUp = catchUpWanted
                catchUpWanted = false
                // Stopping commits whatever is queued, held or not, and ends once nothing is.
                if stopping && queue.isEmpty { return nil }
                guard mayCommit, !queue.isEmpty else { return ([], catchUp) }
                let taken = Array(queue.prefix(maximumBatch))
                queue.removeFirst(taken.count)
                // What is left over from a full batch goes next, without waiting for another release.
                released = !queue.isEmpty
                if released { queueStartedAt = Condition.deadline(microsecondsFromNow: 0) }
                return (taken, catchUp)
            }
            guard let next else { return }
            previousBatch = next.batch.count
            let outcomes = connectionLock.withLock { _ in
                let outcomes = next.batch.isEmpty ? [] : commitBatch(next.batch)
                if walFrameLimit > 0 { noteWALLength(catchingUp: true) }
                return outcomes
            }
            complete(next.batch, outcomes)
        }
    }

    /// Commits `batch`, or fails it whole when the precondition refuses. With `connectionLock` held.
    private func commitBatch(_ batch: [Ticket]) -> [Result<Void, any Error>] {
        let outcomes: [Result<Void, any Error>]
        if let refusal = precondition() {
            outcomes = Array(repeating: .failure(refusal), count: batch.count)
        } else {
            outcomes = commit(batch)
            for case .failure(let error) in outcomes { hooks.failed(error) }
        }
        batches.add(1, ordering: .relaxed)
        writes.add(outcomes.count { if case .success = $0 { true } else { false } }, ordering: .relaxed)
        return outcomes
    }

    /// Runs the completions, outside `connectionLock`: a completion may queue a write of its own.
    private func complete(_ batch: [Ticket], _ outcomes: [Result<Void, any Error>]) {
        for (ticket, outcome) in zip(batch, outcomes) { ticket.completion(outcome) }
    }

    /// Waits until the queue may be committed: it is released, or its oldest held write has waited the longest hold,
    /// or the committer is stopping (which commits what is queued).
    /// Returns false when woken only for a catch-up: the queue, if any, holds writes that their releaser commits.
    private func awaitBatchLocked() -> Bool {
        writerWaiting = true
        defer { writerWaiting = false }
        while !stopping {
            if !queue.isEmpty && released { return true }
            if catchUpWanted { return false }
            if queue.isEmpty || releasersCommit {
                // Held writes whose releaser commits them: nothing to time.
                signal.waitLocked()
            } else if !signal.waitLocked(until: Condition.adding(microseconds: maximumHoldMicroseconds, to: queueStartedAt)) {
                if !queue.isEmpty && !released { expiredHolds.add(1, ordering: .relaxed) }
                return true
            }
        }
        return true
    }

    /// Waits out the commit window, unless the batch fills or the committer stops first.
    private func gatherLocked() {
        let deadline = Condition.deadline(microsecondsFromNow: commitWindowMicroseconds)
        writerGathering = true
        defer { writerGathering = false }
        while queue.count < maximumBatch && !stopping {
            if !signal.waitLocked(until: deadline) { return }
        }
    }

    /// Nudges the checkpoint thread as the WAL grows, and past `walFrameLimit` catches up: with no write in
    /// progress, a PASSIVE checkpoint can copy every frame back (the checkpoint thread has done most of them
    /// already), and the next commit then starts the WAL over. If the checkpoint thread holds the checkpoint lock,
    /// or a reader still needs old frames, this returns at once and is tried after the next batch.
    ///
    /// Only the writer thread catches up (`catchingUp`): a catch-up syncs the database file, which would hold an
    /// event loop's every connection. A releaser that leaves the WAL past the limit wakes the writer for it instead.
    /// With `connectionLock` held.
    private func noteWALLength(catchingUp: Bool) {
        let frames = connection.framesInWAL
        framesInWAL.store(frames, ordering: .relaxed)
        if frames >= walFrameLimit / 4 { walGrowing() }
        guard frames >= walFrameLimit else {
            // The WAL is started over only once a checkpoint has copied all of it back (the checkpoint thread's,
            // most often, when the database file became writable again): failing checkpoints are over.
            if checkpointsFailing.load(ordering: .relaxed) { checkpointsRecovered() }
            return
        }
        guard catchingUp else {
            signal.locked {
                catchUpWanted = true
                if writerWaiting { signal.signalLocked() }
            }
            return
        }
        if checkpointsFailing.load(ordering: .relaxed), Self.monotonicNanoseconds() < nextCatchUpAfterFailure { return }
        // One row: busy, frames in the WAL, frames copied back.
        guard let statement = try? connection.statement("PRAGMA wal_checkpoint(PASSIVE)") else { return }
        defer { statement.reset() }
        do {
            if try statement.step(), statement.int(0) == 0, statement.int(1) == statement.int(2) {
                catchUps.add(1, ordering: .relaxed)
                if checkpointsFailing.load(ordering: .relaxed) { checkpointsRecovered() }
            }
        } catch {
            // Busy is no error here (a reader needing old frames returns a row); an error is the database file
            // refusing the copy (made read-only or immutable under us). Commits still go to the WAL, durable, but it
            // then grows without bound until the disk reserve stops writes: say so, rather than fail silently.
            checkpointErrors.add(1, ordering: .relaxed)
            nextCatchUpAfterFailure = Self.monotonicNanoseconds() + failedCatchUpPauseNanoseconds
            hooks.failed(error)
            let description = "\(error)"
            let started = checkpointError.withLock { last -> Bool in
                defer { last = description }
                return last == nil
            }
            if started {
                checkpointsFailing.store(true, ordering: .relaxed)
                checkpointFailing(description)
            }
        }
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// With `connectionLock` held.
    private func checkpointsRecovered() {
        checkpointsFailing.store(false, ordering: .relaxed)
        if checkpointError.withLock({ $0.take() }) != nil { checkpointFailing(nil) }
    }

    /// With `connectionLock` held.
    private func commit(_ batch: [Ticket]) -> [Result<Void, any Error>] {
        do {
            try run("BEGIN IMMEDIATE")
        } catch {
            return Array(repeating: .failure(error), count: batch.count)
        }
        defer { connection.resetActiveStatements() }
        switch commitWithoutSavepoints(batch) {
        case .finished(let outcomes): return outcomes
        // Alone in its transaction, a failing write was rolled back with it: that is its outcome.
        case .writeFailed(let error) where batch.count == 1: return [.failure(error)]
        case .writeFailed: break
        }
        do {
            try run("BEGIN IMMEDIATE")
        } catch {
            return Array(repeating: .failure(error), count: batch.count)
        }
        var outcomes: [Result<Void, any Error>] = []
        outcomes.reserveCapacity(batch.count)
        for ticket in batch {
            do {
                try run("SAVEPOINT item")
                do {
                    try ticket.write(connection)
                    try run("RELEASE item")
                    ticket.written?()
                    outcomes.append(.success(()))
                } catch {
                    try? run("ROLLBACK TO item")
                    try? run("RELEASE item")
                    outcomes.append(.failure(error))
                }
            } catch {
                outcomes.append(.failure(error))
            }
        }
        if let error = finish() { return Array(repeating: .failure(error), count: batch.count) }
        return outcomes
    }

    /// The batch hook, then COMMIT; on failure the transaction is rolled back and the error returned.
    private func finish() -> (any Error)? {
        do {
            try hooks.beforeCommit(connection)
            try run("COMMIT")
            return nil
        } catch {
            connection.resetActiveStatements()
            rollBack()
            return error
        }
    }

    private func rollBack() {
        try? run("ROLLBACK")
        hooks.afterRollback()
    }

    private enum OptimisticCommit {
        /// Committed, or the COMMIT itself failed (which fails every write).
        case finished([Result<Void, any Error>])
        /// A write threw and the transaction is rolled back: the caller starts over with savepoints.
        case writeFailed(any Error)
    }

    /// The common case: every write succeeds and the batch commits as it is.
    private func commitWithoutSavepoints(_ batch: [Ticket]) -> OptimisticCommit {
        for ticket in batch {
            do {
                try ticket.write(connection)
                ticket.written?()
            } catch {
                connection.resetActiveStatements()
                rollBack()
                return .writeFailed(error)
            }
        }
        if let error = finish() { return .finished(Array(repeating: .failure(error), count: batch.count)) }
        return .finished(Array(repeating: .success(()), count: batch.count))
    }

    /// Transaction control through cached prepared statements: `sqlite3_exec` would parse the text on every
    /// call, several times per batch.
    private func run(_ sql: String) throws {
        try connection.statement(sql).run()
    }
}

/// Holds one write's outcome until the writer thread sets it; `perform` waits on it.
private final class Latch: @unchecked Sendable {
    // `result` is read and written only under `signal`'s mutex.
    private let signal = Condition()
    private var result: Result<Void, any Error>?

    func set(_ outcome: Result<Void, any Error>) {
        signal.locked {
            result = outcome
            signal.broadcastLocked()
        }
    }

    func wait() -> Result<Void, any Error> {
        signal.locked {
            while result == nil { signal.waitLocked() }
            return result!
        }
    }
}
