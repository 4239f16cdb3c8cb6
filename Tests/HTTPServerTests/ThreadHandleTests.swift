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

    /// What the body captured is released before the wait ends: a store's writer closes its SQLite connection when
    /// its engine is released, and the owner that waited must find the files closed (a read-only remount of the
    /// data folder failed as busy when the thread released it after signalling). The capture's deinit is slow, so a
    /// release after `ended()` would be seen here every time, not by chance.
    @Test func theBodysCapturesAreReleasedBeforeTheWaitEnds() {
        let released = Signal()
        // Made in the capture list, so the closure holds the only reference.
        let handle = DetachedThread.spawn(name: "handle-release") {
            [capture = SlowToRelease { released.raise() }] in
            withExtendedLifetime(capture) {}
        }
        #expect(handle.waitUntilFinished(milliseconds: 10_000))
        #expect(released.wait(timeout: .zero), "the capture was still being released")
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

/// Takes a while to go: its deinit sleeps before it reports that it ran.
private final class SlowToRelease: Sendable {
    let onRelease: @Sendable () -> Void
    init(onRelease: @escaping @Sendable () -> Void) { self.onRelease = onRelease }
    deinit {
        usleep(100_000)
        onRelease()
    }
}
