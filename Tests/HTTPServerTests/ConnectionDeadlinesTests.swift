@testable import HTTPServer
import Testing

@Suite("Connection deadlines (injected clock)")
struct ConnectionDeadlinesTests {
    static let timeouts = ConnectionDeadlines.Timeouts(request: 100, idle: 1000, write: 50, linger: 20)

    /// Until its first byte, a connection has the shorter of the request and idle timeouts, and closes quietly.
    @Test func aSilentNewConnectionClosesAtTheRequestTimeout() {
        let deadlines = ConnectionDeadlines(timeouts: Self.timeouts, openedAt: 10)
        #expect(deadlines.expiry(at: 109) == nil)
        #expect(deadlines.expiry(at: 110) == .idle)
        let shortIdle = ConnectionDeadlines(
            timeouts: ConnectionDeadlines.Timeouts(request: 100, idle: 30, write: 50, linger: 20), openedAt: 10)
        #expect(shortIdle.expiry(at: 40) == .idle)
    }

    @Test func trickledBytesDoNotExtendTheRequestDeadline() {
        var deadlines = ConnectionDeadlines(timeouts: Self.timeouts, openedAt: 0)
        deadlines.requestStarted(at: 5)
        for now in stride(from: 10, to: 100, by: 10) {
            deadlines.requestStarted(at: UInt64(now))
            #expect(deadlines.expiry(at: UInt64(now)) == nil)
        }
        #expect(deadlines.expiry(at: 105) == .request)
    }

    /// After a request, a keep-alive connection waits the whole idle timeout for the next one (not the shorter
    /// wait of a connection that never sent a byte).
    @Test func completingARequestStartsTheIdleTimer() {
        var deadlines = ConnectionDeadlines(timeouts: Self.timeouts, openedAt: 0)
        deadlines.requestStarted(at: 10)
        deadlines.requestCompleted()
        deadlines.becameIdle(at: 50)
        #expect(deadlines.expiry(at: 1049) == nil)
        #expect(deadlines.expiry(at: 1050) == .idle)
    }

    @Test func blockedWriteExpiresUnlessDrained() {
        var deadlines = ConnectionDeadlines(timeouts: Self.timeouts, openedAt: 0)
        deadlines.requestStarted(at: 0)
        deadlines.requestCompleted()
        deadlines.writeBlocked(at: 10)
        deadlines.writeBlocked(at: 40)
        #expect(deadlines.expiry(at: 59) == nil)
        #expect(deadlines.expiry(at: 60) == .write)
        deadlines.writeDrained()
        #expect(deadlines.expiry(at: 60) == nil)
    }

    @Test func idleTimerWaitsForPendingWrites() {
        var deadlines = ConnectionDeadlines(timeouts: Self.timeouts, openedAt: 0)
        deadlines.requestStarted(at: 0)
        deadlines.requestCompleted()
        deadlines.writeBlocked(at: 0)
        deadlines.becameIdle(at: 0)
        #expect(deadlines.idle == nil)
    }

    @Test func lingerReplacesOtherTimers() {
        var deadlines = ConnectionDeadlines(timeouts: Self.timeouts, openedAt: 0)
        deadlines.requestStarted(at: 0)
        deadlines.lingerStarted(at: 30)
        #expect(deadlines.expiry(at: 49) == nil)
        #expect(deadlines.expiry(at: 50) == .linger)
        #expect(deadlines.nextDeadline == 50)
    }
}
