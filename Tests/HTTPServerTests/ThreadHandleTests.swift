@testable import DetachedThreads
import Glibc
import Synchronization
import Testing

/// An owner can wait for a thread it started to return, so a process does not exit under its store's threads; a
/// thread waiting for itself does not deadlock.
@Suite struct ThreadHandleTests {
    @Test func waitingReturnsOnceTheBodyHasReturned() {
        let release = Signal()
        let handle = DetachedThread.spawn(name: "handle-test") { _ = release.wait(timeout: .seconds(30)) }
        #expect(!handle.waitUntilFinished(milliseconds: 50), "the body is still blocked")
        release.raise()
        #expect(handle.waitUntilFinished(milliseconds: 10_000))
        #expect(handle.waitUntilFinished(milliseconds: 0), "and stays finished")
    }

    @Test func aThreadWaitingForItselfReturnsAtOnce() {
        let handle = Mutex<DetachedThread.Handle?>(nil)
        let ready = Signal()
        let done = Signal()
        let waited = Mutex<Bool?>(nil)
        let spawned = DetachedThread.spawn(name: "handle-self") {
            _ = ready.wait(timeout: .seconds(30))
            let own = handle.withLock { $0 }
            waited.withLock { $0 = own?.waitUntilFinished(milliseconds: 60_000) }
            done.raise()
        }
        handle.withLock { $0 = spawned }
        ready.raise()
        #expect(done.wait(timeout: .seconds(10)), "a thread waiting for itself would wait the whole minute")
        #expect(waited.withLock { $0 } == false)
        #expect(spawned.waitUntilFinished(milliseconds: 10_000))
    }
}
