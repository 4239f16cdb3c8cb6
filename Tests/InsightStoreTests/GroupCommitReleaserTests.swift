import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import InsightStore

/// Held writes committed by their releaser (`GroupCommitter(releasersCommit: true)`, `commitHeldWrites()`): the
/// service's event loops commit the records of their own pass. Nothing may be lost when releasers race each other,
/// the writer thread or maintenance for the connection.
@Suite struct GroupCommitReleaserTests {
    private func makeCommitter(_ directory: TemporaryDirectory, walFrameLimit: Int = 1000) throws -> GroupCommitter {
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        try connection.execute(ItemInsert.createTable)
        // A hold far longer than any test: a write committed here was committed by a releaser, not by a timer.
        return GroupCommitter(
            connection: connection, walFrameLimit: walFrameLimit, maximumHoldMicroseconds: 60_000_000,
            releasersCommit: true)
    }

    private func rows(_ committer: GroupCommitter) throws -> Int {
        try committer.withConnection { try $0.integer("SELECT count(*) FROM item") }
    }

    @Test func theReleaserCommitsItsHeldWritesOnItsOwnThreadBeforeReturning() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory)
        let insert = ItemInsert()
        let completions = WriteCompletions()
        for _ in 0..<5 {
            committer.submit({ try insert($0) }, heldForRelease: true, completion: completions.record)
        }
        // Nobody wakes the writer for a held write, and no hold runs out.
        #expect(!completions.wait(for: 1, seconds: 0.3))
        #expect(committer.batchesCommitted == 0)

        committer.commitHeldWrites()
        // Done by the time it returns, on this thread, in one batch.
        #expect(completions.count == 5)
        #expect(completions.completingThreads == [UInt(pthread_self())])
        #expect(committer.batchesCommitted == 1)
        #expect(committer.writesCommitted == 5)
        #expect(committer.holdsExpired == 0)
        #expect(try rows(committer) == 5)
    }

    @Test func committingWithNothingQueuedDoesNothing() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory)
        committer.commitHeldWrites()
        #expect(committer.batchesCommitted == 0)
    }

    @Test func aWriteThatIsNotHeldIsStillCommittedByTheWriter() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory)
        let insert = ItemInsert()
        try committer.perform { try insert($0) }
        #expect(try rows(committer) == 1)
    }

    /// Releasers that find the connection taken leave their writes to whoever holds it: with many racing, every
    /// write still commits, each exactly once, and none waits for a later release.
    @Test func racingReleasersLoseNoWrite() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory)
        let insert = ItemInsert()
        let completions = WriteCompletions()
        let threads = 4
        let rounds = 200
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<rounds {
                committer.submit({ try insert($0) }, heldForRelease: true, completion: completions.record)
                committer.commitHeldWrites()
            }
        }
        // Whatever a releaser left behind is taken by the thread that held the connection: another releaser, or
        // the writer thread when it was catching up with the WAL (1,000 frames), which then commits the rest.
        #expect(completions.wait(for: threads * rounds, seconds: 30))
        #expect(completions.count == threads * rounds)
        #expect(try rows(committer) == threads * rounds)
        #expect(committer.writesCommitted == threads * rounds)
    }

    /// A releaser that finds the connection held for maintenance leaves its writes queued; the writer commits them
    /// once maintenance lets go, without another release.
    @Test func writesLeftDuringMaintenanceAreCommittedAfterIt() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory)
        let insert = ItemInsert()
        let completions = WriteCompletions()
        let maintenanceStarted = DispatchSemaphore(value: 0)
        let releaserDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            committer.withConnection { _ in
                maintenanceStarted.signal()
                _ = releaserDone.wait(timeout: .now() + 10)
            }
        }
        #expect(maintenanceStarted.wait(timeout: .now() + 10) == .success)
        committer.submit({ try insert($0) }, heldForRelease: true, completion: completions.record)
        committer.commitHeldWrites()
        #expect(completions.count == 0, "the connection was held: the releaser returned without committing")
        releaserDone.signal()
        #expect(completions.wait(for: 1, seconds: 10))
        #expect(try rows(committer) == 1)
    }

    /// A releaser never runs the WAL catch-up (it syncs the database file, which would hold an event loop): past
    /// the frame limit it wakes the writer thread for it.
    @Test func theWriterThreadCatchesUpAfterAReleaserPassesTheWALLimit() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory, walFrameLimit: 8)
        let insert = ItemInsert()
        let completions = WriteCompletions()
        for _ in 0..<40 {
            for _ in 0..<20 {
                committer.submit({ try insert($0) }, heldForRelease: true, completion: completions.record)
            }
            committer.commitHeldWrites()
        }
        // Commits that found the writer catching up were left to it.
        #expect(completions.wait(for: 800, seconds: 30))
        var waited = 0
        while committer.checkpointCatchUps == 0 && waited < 100 {
            usleep(50_000)
            waited += 1
        }
        #expect(committer.checkpointCatchUps > 0)
        // Caught up, the WAL starts over at the next commit instead of growing with every batch. The writer may still
        // be catching up with the last commits, so a commit after it is waited for.
        var restarted = false
        for _ in 0..<100 where !restarted {
            committer.submit({ try insert($0) }, heldForRelease: true, completion: completions.record)
            committer.commitHeldWrites()
            restarted = committer.withConnection { $0.framesInWAL } < 8
            if !restarted { usleep(50_000) }
        }
        #expect(restarted)
    }
}
