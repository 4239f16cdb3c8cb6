import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import InsightStore

/// The commit window: after a batch of several writes the writer waits for the next batch to fill, and never
/// otherwise. Windows here are long (hundreds of milliseconds to seconds) so that a slow machine cannot blur them.
@Suite struct GroupCommitWindowTests {
    private func makeCommitter(
        _ directory: TemporaryDirectory, windowMicroseconds: Int, maximumBatch: Int = 512
    ) throws -> GroupCommitter {
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        try connection.execute(ItemInsert.createTable)
        return GroupCommitter(connection: connection, maximumBatch: maximumBatch, commitWindowMicroseconds: windowMicroseconds)
    }

    private static func milliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
    }

    /// Leaves the writer in its commit window: three writes are queued while the test holds the connection, so the
    /// writer's last batch holds two or three of them, however it was scheduled.
    private func startWindow(_ committer: GroupCommitter, _ insert: ItemInsert) {
        let done = DispatchSemaphore(value: 0)
        committer.withConnection { _ in
            for _ in 0..<3 {
                committer.submit({ try insert($0) }, completion: { _ in done.signal() })
                usleep(20_000)
            }
        }
        for _ in 0..<3 { _ = done.wait(timeout: .now() + 10) }
    }

    @Test func writesArrivingUnderLoadShareAFewCommits() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory, windowMicroseconds: 300_000)
        let insert = ItemInsert()
        startWindow(committer, insert)
        let before = committer.batchesCommitted
        let latencies = Mutex<[Double]>([])
        let done = DispatchSemaphore(value: 0)
        // Thirty writes 5 ms apart: each would commit alone (a commit takes well under 5 ms) without the window.
        for _ in 0..<30 {
            let submitted = Self.milliseconds()
            committer.submit({ try insert($0) }, completion: { outcome in
                if case .success = outcome { latencies.withLock { $0.append(Self.milliseconds() - submitted) } }
                done.signal()
            })
            usleep(5_000)
        }
        for _ in 0..<30 { #expect(done.wait(timeout: .now() + 10) == .success) }
        #expect(latencies.withLock { $0.count } == 30)
        #expect(committer.batchesCommitted - before <= 4)
        #expect(committer.writesCommitted == 33)
        // Held for the window at most, plus the commit itself (slack for a loaded machine).
        #expect(latencies.withLock { $0.max() ?? 0 } < 300 + 2000)
    }

    @Test func aLoneWriteAfterALoneWriteIsNeverHeld() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory, windowMicroseconds: 10_000_000)
        let insert = ItemInsert()
        let start = Self.milliseconds()
        for _ in 0..<5 { try committer.perform { try insert($0) } }
        // One 10 s window would be enough to fail this.
        #expect(Self.milliseconds() - start < 5000)
        #expect(committer.batchesCommitted == 5)
    }

    @Test func aFullBatchEndsTheWindowEarly() throws {
        let directory = try TemporaryDirectory()
        let committer = try makeCommitter(directory, windowMicroseconds: 10_000_000, maximumBatch: 4)
        let insert = ItemInsert()
        startWindow(committer, insert)
        let done = DispatchSemaphore(value: 0)
        let start = Self.milliseconds()
        for _ in 0..<4 { committer.submit({ try insert($0) }, completion: { _ in done.signal() }) }
        for _ in 0..<4 { #expect(done.wait(timeout: .now() + 8) == .success) }
        #expect(Self.milliseconds() - start < 5000)
    }

    @Test func theWindowHoldsAWriteUntilItEndsOrTheCommitterStops() throws {
        let directory = try TemporaryDirectory()
        var committer: GroupCommitter? = try makeCommitter(directory, windowMicroseconds: 10_000_000)
        let insert = ItemInsert()
        startWindow(committer!, insert)
        let done = DispatchSemaphore(value: 0)
        committer!.submit({ try insert($0) }, completion: { _ in done.signal() })
        // Inside the window the write waits for company...
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut)
        // ...but stopping commits it at once instead of after the rest of the window.
        let start = Self.milliseconds()
        committer = nil
        #expect(done.wait(timeout: .now() + 8) == .success)
        #expect(Self.milliseconds() - start < 5000)
        let reader = try SQLiteConnection(path: directory.file("db.sqlite"), mode: .readOnly)
        let count = try reader.statement("SELECT count(*) FROM item")
        #expect(try count.step())
        #expect(count.int(0) == 4)
    }
}
