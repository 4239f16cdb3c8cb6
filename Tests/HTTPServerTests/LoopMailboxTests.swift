import CLinux
import Dispatch
import Glibc
@testable import HTTPServer
import Testing

/// Settled gates left for an event loop: another thread's post wakes the loop through its eventfd, a post from the
/// loop's own thread (a commit at the end of its pass) does not, since the loop looks for posts before it waits.
@Suite struct LoopMailboxTests {
    private func pendingWakeUps(_ fd: Int32) -> UInt64 {
        var value: UInt64 = 0
        return read(fd, &value, 8) == 8 ? value : 0
    }

    @Test func onlyPostsFromOtherThreadsWriteTheEventfd() throws {
        let fd = clinux_eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        try #require(fd >= 0)
        defer { close(fd) }
        let mailbox = LoopMailbox(wakeFD: fd)
        mailbox.ownerStarted()

        mailbox.post(ResponseGate())
        #expect(mailbox.hasPosts)
        #expect(pendingWakeUps(fd) == 0)
        #expect(mailbox.take().count == 1)
        #expect(!mailbox.hasPosts)

        let posted = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            mailbox.post(ResponseGate())
            mailbox.post(ResponseGate())
            posted.signal()
        }
        posted.wait()
        // One wake-up for the two: the second found the box already holding one.
        #expect(pendingWakeUps(fd) == 1)
        #expect(mailbox.take().count == 2)
    }
}
