import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import InsightStore

/// Held writes: they wait for a release, a write that is not held, or the hold limit, and then share one commit.
/// Holds here are long (seconds) wherever a test must see a write still waiting, so a slow machine cannot blur them.
@Suite struct GroupCommitHoldTests {
    private func makeCommitter(_ directory: TemporaryDirectory, maximumHoldMicroseconds: Int) throws -> GroupCommitter {
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        try connection.execute(ItemInsert.createTable)
        return GroupCommitter(connection: connection, maximumHoldMicroseconds: maximumHoldMicroseconds)
    }

    private func rows(_ committer: GroupCommitter) throws -> Int {
        try committer.withConnection { try $0.integer("SELECT count(*) FROM item") }
    }

    @Test func heldWritesWaitForTheReleaseAndThenShareOneCommit() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory, maximumHoldMicroseconds: 30_000_000)
        let insert = ItemInsert()
        let completions = WriteCompletions()
        for _ in 0..<5 {
            committer.submit({ try insert($0) }, heldForRelease: true, completion: completions.record)
        }
        #expect(!completions.wait(for: 1, seconds: 0.3))
        #expect(committer.batchesCommitted == 0)
        #expect(try rows(committer) == 0)

        committer.releaseHeldWrites()
        #expect(completions.wait(for: 5, seconds: 10))
        #expect(completions.count == 5)
        #expect(committer.batchesCommitted == 1)
        #expect(committer.writesCommitted == 5)
        #expect(committer.holdsExpired == 0)
    }

    @Test func aWriteThatIsNotHeldTakesTheHeldOnesWithIt() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory, maximumHoldMicroseconds: 30_000_000)
        let insert = ItemInsert()
        let completions = WriteCompletions()
        committer.submit({ try insert($0) }, heldForRelease: true, completion: completions.record)
        committer.submit({ try insert($0) }, heldForRelease: true, completion: completions.record)
        #expect(!completions.wait(for: 1, seconds: 0.2))
        try committer.perform { try insert($0) }
        #expect(completions.wait(for: 2, seconds: 10))
        #expect(committer.batchesCommitted == 1)
        #expect(committer.writesCommitted == 3)
    }

    @Test func aReleaseWithNothingHeldDoesNotLetTheNextHeldWriteThrough() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory, maximumHoldMicroseconds: 30_000_000)
        let insert = ItemInsert()
        let completions = WriteCompletions()
        committer.releaseHeldWrites()
        committer.submit({ try insert($0) }, heldForRelease: true, completion: completions.record)
        #expect(!completions.wait(for: 1, seconds: 0.3))
        committer.releaseHeldWrites()
        #expect(completions.wait(for: 1, seconds: 10))
    }

    @Test func aHeldWriteNobodyReleasesCommitsOnceTheHoldRunsOut() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory, maximumHoldMicroseconds: 200_000)
        let insert = ItemInsert()
        let completions = WriteCompletions()
        // The writer is asleep on an empty queue by now: the held write must wake it to start the hold's clock.
        usleep(100_000)
        var started = timespec()
        clock_gettime(CLOCK_MONOTONIC, &started)
        committer.submit({ try insert($0) }, heldForRelease: true, completion: completions.record)
        #expect(completions.wait(for: 1, seconds: 10))
        var ended = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ended)
        let waited = Double(ended.tv_sec - started.tv_sec) + Double(ended.tv_nsec - started.tv_nsec) / 1e9
        #expect(waited >= 0.19)
        #expect(committer.holdsExpired == 1)
        #expect(try rows(committer) == 1)
    }

    @Test func aLaterHeldWriteDoesNotExtendTheOldestOnesHold() throws {
        let directory = try TemporaryDirectory()
        // Long enough that a writer thread starved for a while on a loaded machine still sees two holds run out.
        let committer = try makeCommitter(directory, maximumHoldMicroseconds: 1_000_000)
        let insert = ItemInsert()
        let completions = WriteCompletions()
        var started = timespec()
        clock_gettime(CLOCK_MONOTONIC, &started)
        committer.submit({ try insert($0) }, heldForRelease: true, completion: completions.record)
        // A held write every 250 ms: each would push a hold counted from the newest write past 1 s for good.
        for _ in 0..<8 {
            usleep(250_000)
            committer.submit({ try insert($0) }, heldForRelease: true, completion: completions.record)
        }
        #expect(completions.wait(for: 9, seconds: 10))
        var ended = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ended)
        #expect(committer.batchesCommitted >= 2)
        #expect(committer.holdsExpired >= 2)
        #expect(ended.tv_sec - started.tv_sec < 5)
    }

    @Test func stoppingCommitsWhatIsStillHeld() throws {
        let directory = try TemporaryDirectory()
        let insert = ItemInsert()
        let completions = WriteCompletions()
        do {
            let committer = try makeCommitter(directory, maximumHoldMicroseconds: 30_000_000)
            for _ in 0..<3 {
                committer.submit({ try insert($0) }, heldForRelease: true, completion: completions.record)
            }
        }
        #expect(completions.wait(for: 3, seconds: 10))
        #expect(completions.count == 3)
    }
}
