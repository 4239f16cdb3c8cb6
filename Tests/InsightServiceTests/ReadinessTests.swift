import Dispatch
import Glibc
import InsightService
import Synchronization
import Testing

/// Readiness answers `/readyz` on the event loop, so it must never wait for the storage check (a real write that
/// can sit out SQLite's busy timeout): it answers with the last known state and re-checks in the background.
@Suite struct ReadinessTests {
    final class FakeStorage: Sendable {
        let writable = Atomic<Bool>(true)
        let checks = Atomic<Int>(0)
        let gate = DispatchSemaphore(value: 0)
        let blocks = Atomic<Bool>(false)
        let time = Atomic<Int64>(10_000)

        func check() -> Bool {
            checks.add(1, ordering: .relaxed)
            if blocks.load(ordering: .relaxed) { gate.wait() }
            return writable.load(ordering: .relaxed)
        }

        func readiness() -> Readiness {
            Readiness(storageCheck: { self.check() }, clock: { self.time.load(ordering: .relaxed) })
        }
    }

    func wait(until condition: () -> Bool) {
        for _ in 0..<200 where !condition() { usleep(5_000) }
    }

    @Test func theOperatorIsToldOfEachChangeOfStorageNotOfEachCheck() {
        let storage = FakeStorage()
        let changes = Mutex<[Bool]>([])
        let readiness = Readiness(
            storageCheck: { storage.check() }, clock: { storage.time.load(ordering: .relaxed) },
            storageChanged: { writable in changes.withLock { $0.append(writable) } })
        #expect(readiness.isStorageWritable(now: 10_000))
        readiness.noteStorageWrite(succeeded: false, now: 10_001)
        readiness.noteStorageWrite(succeeded: false, now: 10_002)
        #expect(!readiness.lastKnownStorageWritable)
        readiness.noteStorageWrite(succeeded: true, now: 10_003)
        #expect(readiness.lastKnownStorageWritable)
        readiness.noteStorageWrite(succeeded: true, now: 10_004)
        #expect(changes.withLock { $0 } == [false, true])
        // A start on an unwritable store says so too: the start counts as writable.
        let full = FakeStorage()
        full.writable.store(false, ordering: .relaxed)
        let told = Mutex<[Bool]>([])
        let starting = Readiness(storageCheck: { full.check() }, storageChanged: { writable in told.withLock { $0.append(writable) } })
        #expect(!starting.isStorageWritable(now: 10_000))
        #expect(told.withLock { $0 } == [false])
    }

    /// Unwritable storage is re-checked on its own, so recovery shows without a probe asking (before, `/readyz`
    /// answered the stale state to the first probe after space came back, and a probe every 5 s saw it 5 s late).
    @Test func unwritableStorageIsWatchedUntilItRecovers() {
        let storage = FakeStorage()
        storage.writable.store(false, ordering: .relaxed)
        let changes = Mutex<[Bool]>([])
        let readiness = Readiness(
            storageCheck: { storage.check() }, clock: { storage.time.load(ordering: .relaxed) }, recoveryCheckMilliseconds: 20,
            storageChanged: { writable in changes.withLock { $0.append(writable) } })
        readiness.noteStorageWrite(succeeded: false, now: 10_000)
        wait { storage.checks.load(ordering: .relaxed) >= 2 }
        #expect(!readiness.lastKnownStorageWritable)
        storage.writable.store(true, ordering: .relaxed)
        wait { readiness.lastKnownStorageWritable }
        #expect(readiness.lastKnownStorageWritable, "recovered without anyone asking")
        #expect(changes.withLock { $0 } == [false, true])
        // The watch ends once storage is writable: no more checks.
        let checks = storage.checks.load(ordering: .relaxed)
        usleep(100_000)
        #expect(storage.checks.load(ordering: .relaxed) == checks)
        // Draining ends it too.
        storage.writable.store(false, ordering: .relaxed)
        readiness.set(.draining)
        readiness.noteStorageWrite(succeeded: false, now: 10_100)
        usleep(100_000)
        #expect(storage.checks.load(ordering: .relaxed) == checks)
    }

    @Test func firstAnswerChecksInPlace() {
        let storage = FakeStorage()
        storage.writable.store(false, ordering: .relaxed)
        #expect(storage.readiness().isStorageWritable(now: 10_000) == false)
        #expect(storage.checks.load(ordering: .relaxed) == 1)
    }

    @Test func aStaleStateIsAnsweredAtOnceWhileOneRecheckRuns() {
        let storage = FakeStorage()
        let readiness = storage.readiness()
        #expect(readiness.isStorageWritable(now: 10_000))
        storage.blocks.store(true, ordering: .relaxed)
        storage.writable.store(false, ordering: .relaxed)
        // Stale: answered from the last state, not after the (blocked) check; asking again starts no second check.
        #expect(readiness.isStorageWritable(now: 11_500))
        #expect(readiness.isStorageWritable(now: 11_600))
        wait { storage.checks.load(ordering: .relaxed) == 2 }
        #expect(storage.checks.load(ordering: .relaxed) == 2)
        storage.gate.signal()
        wait { !readiness.isStorageWritable(now: 11_700) }
        #expect(readiness.isStorageWritable(now: 11_700) == false)
    }

    @Test func aFailedWriteCountsFromWhenItEndedNotWhenItsRequestBegan() {
        let storage = FakeStorage()
        let readiness = storage.readiness()
        #expect(readiness.isStorageWritable(now: 10_000))
        // The write began at 10 s and failed at 15 s, after waiting for a lock.
        storage.time.store(15_000, ordering: .relaxed)
        readiness.noteStorageWrite(succeeded: false, now: 10_000)
        #expect(readiness.isStorageWritable(now: 15_500) == false)
        #expect(storage.checks.load(ordering: .relaxed) == 1)
    }
}
