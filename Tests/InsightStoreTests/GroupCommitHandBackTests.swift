import DetachedThreads
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import InsightStore

/// Finished held writes go back to the thread that submitted them, which lets go of them (and of what their
/// closures captured) at its next release: memory an event loop allocated is freed by that loop, not the writer.
@Suite struct GroupCommitHandBackTests {
    /// Records the thread its last reference was let go on.
    private final class Capture: Sendable {
        private let place: ReleasePlace
        init(_ place: ReleasePlace) { self.place = place }
        deinit { place.note(pthread_self()) }
    }

    private final class ReleasePlace: Sendable {
        private let thread = Mutex<pthread_t?>(nil)
        var releasedOn: pthread_t? { thread.withLock { $0 } }
        func note(_ thread: pthread_t) { self.thread.withLock { $0 = thread } }
    }

    private func makeCommitter(_ directory: TemporaryDirectory, maximumBatch: Int = 512, holdMicroseconds: Int) throws -> GroupCommitter {
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        try connection.execute(ItemInsert.createTable)
        return GroupCommitter(connection: connection, maximumBatch: maximumBatch, maximumHoldMicroseconds: holdMicroseconds)
    }

    /// Submits one held write whose closures capture a `Capture`; returns where it goes and a wait for its commit.
    private func submitHeld(to committer: GroupCommitter, insert: ItemInsert) -> (ReleasePlace, DispatchSemaphore) {
        let place = ReleasePlace()
        let committed = DispatchSemaphore(value: 0)
        do {
            let capture = Capture(place)
            committer.submit({ connection in
                _ = capture
                try insert(connection)
            }, heldForRelease: true) { _ in
                _ = capture
                committed.signal()
            }
        }
        return (place, committed)
    }

    @Test func aHeldWriteIsLetGoOfByItsSubmitterAtItsNextRelease() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory, holdMicroseconds: 30_000_000)
        let insert = ItemInsert()
        let (place, committed) = submitHeld(to: committer, insert: insert)
        // A write that is not held takes the held one with it, without a release that could take it back at once.
        try committer.perform { try insert($0) }
        #expect(committed.wait(timeout: .now() + 10) == .success)
        // The writer hands the ticket back just after its completion: wait for that, then take it back.
        for _ in 0..<1000 where committer.finishedAwaitingSubmitters == 0 { usleep(1000) }
        #expect(committer.finishedAwaitingSubmitters == 1)
        #expect(place.releasedOn == nil)
        committer.releaseHeldWrites()
        #expect(committer.finishedAwaitingSubmitters == 0)
        #expect(place.releasedOn.map { pthread_equal($0, pthread_self()) != 0 } == true)
    }

    @Test func eachSubmitterTakesBackOnlyItsOwnWrites() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory, holdMicroseconds: 30_000_000)
        let insert = ItemInsert()
        let (mine, myCommit) = submitHeld(to: committer, insert: insert)
        let other = DispatchSemaphore(value: 0)
        let otherPlace = Mutex<ReleasePlace?>(nil)
        // The other thread submits and never releases: this thread's release commits both writes.
        let otherThread = DetachedThread.spawn(name: "other-loop") {
            let (place, committed) = submitHeld(to: committer, insert: insert)
            otherPlace.withLock { $0 = place }
            other.signal()
            _ = committed.wait(timeout: .now() + 10)
        }
        #expect(other.wait(timeout: .now() + 10) == .success)
        committer.releaseHeldWrites()
        #expect(myCommit.wait(timeout: .now() + 10) == .success)
        #expect(otherThread.waitUntilFinished(milliseconds: 10_000))
        // That release may already have taken this thread's write back, if the commit beat it.
        for _ in 0..<1000 where committer.finishedAwaitingSubmitters < (mine.releasedOn == nil ? 2 : 1) { usleep(1000) }
        committer.releaseHeldWrites()
        #expect(mine.releasedOn.map { pthread_equal($0, pthread_self()) != 0 } == true)
        #expect(otherPlace.withLock { $0 }?.releasedOn == nil)
        #expect(committer.finishedAwaitingSubmitters == 1)
    }

    @Test func writesThatAreNotHeldAreLetGoOfByTheWriter() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory, holdMicroseconds: 30_000_000)
        let insert = ItemInsert()
        let place = ReleasePlace()
        let mayWrite = DispatchSemaphore(value: 0)
        let committed = DispatchSemaphore(value: 0)
        // The write waits until this thread has let go of everything it made, so the writer's is the last reference.
        committer.submit(Self.write(capturing: Capture(place), after: mayWrite, insert: insert)) { _ in committed.signal() }
        mayWrite.signal()
        #expect(committed.wait(timeout: .now() + 10) == .success)
        for _ in 0..<1000 where place.releasedOn == nil { usleep(1000) }
        #expect(place.releasedOn.map { pthread_equal($0, pthread_self()) == 0 } == true)
        #expect(committer.finishedAwaitingSubmitters == 0)
    }

    private static func write(capturing capture: Capture, after signal: DispatchSemaphore, insert: ItemInsert) -> GroupCommitter.Write {
        { connection in
            _ = capture
            _ = signal.wait(timeout: .now() + 10)
            try insert(connection)
        }
    }

    /// A thread that submits held writes and never releases (they commit when the hold runs out) must not make the
    /// writer keep every one of them: past a bound, the writer lets go of them itself.
    @Test func aSubmitterThatNeverReleasesDoesNotMakeTheWriterKeepEverything() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory, maximumBatch: 2, holdMicroseconds: 1_000)
        let insert = ItemInsert()
        var commits: [DispatchSemaphore] = []
        for _ in 0..<60 { commits.append(submitHeld(to: committer, insert: insert).1) }
        for committed in commits { #expect(committed.wait(timeout: .now() + 10) == .success) }
        usleep(20_000)
        #expect(committer.finishedAwaitingSubmitters > 0)
        #expect(committer.finishedAwaitingSubmitters <= 2 * 8)
    }
}
