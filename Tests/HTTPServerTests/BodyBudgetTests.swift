import Glibc
@testable import HTTPServer
import Testing

/// The bound on large bodies held across connections: without it 64 clients each sending an 8 MiB label batch took
/// the process to 650 MB and `/healthz` to 5 s (resources probe, 6 December).
@Suite("Body budget", .serialized)
struct BodyBudgetTests {
    @Test func aReservationIsGivenBackWhenItsHolderGoes() {
        let budget = BodyBudget(total: 1000)
        var first = budget.reserve(600)
        #expect(first != nil)
        #expect(budget.reservedBytes == 600)
        #expect(budget.reserve(500) == nil)
        let second = budget.reserve(400)
        #expect(second != nil)
        #expect(budget.reservedBytes == 1000)
        first = nil
        #expect(budget.reservedBytes == 400)
        withExtendedLifetime(second) {}
    }

    @Test func aBodyLargerThanTheWholeBudgetIsTakenOnlyWhenNothingElseIsHeld() {
        let budget = BodyBudget(total: 1000)
        var small = budget.reserve(10)
        #expect(budget.reserve(5000) == nil)
        small = nil
        let whole = budget.reserve(5000)
        #expect(whole?.bytes == 1000)
        #expect(budget.reserve(1) == nil)
        withExtendedLifetime((small, whole)) {}
    }

    @Test func onlyBodiesOverTheThresholdReserve() {
        #expect(ConnectionSession.reservedBodyBytes(.contentLength(1200), limit: 1 << 20) == nil)
        // An evaluation-sized route limit (64 KiB) no longer lets its bodies go unreserved: 10,000 connections each
        // holding all but the end of one took 1.3-1.6 GB (resources probe, 6 December).
        #expect(BodyBudget.reservedAbove == 8_192)
        #expect(ConnectionSession.reservedBodyBytes(.contentLength(60_000), limit: 65_536) == 60_000)
        #expect(ConnectionSession.reservedBodyBytes(.chunked, limit: 65_536) == 65_536)
        #expect(ConnectionSession.reservedBodyBytes(.contentLength(BodyBudget.reservedAbove + 1), limit: 1 << 20) == BodyBudget.reservedAbove + 1)
        // Over the route's limit it is a 413, which reads nothing.
        #expect(ConnectionSession.reservedBodyBytes(.contentLength(2 << 20), limit: 1 << 20) == nil)
        #expect(ConnectionSession.reservedBodyBytes(.chunked, limit: 1 << 20) == 1 << 20)
        #expect(ConnectionSession.reservedBodyBytes(.chunked, limit: 1024) == nil)
        #expect(ConnectionSession.reservedBodyBytes(.none, limit: 1 << 20) == nil)
    }

    /// A body's bytes are copied out of the read buffer into the body (sized to its length once); an emptied buffer
    /// that a large read grew no longer stays that large beside it (the two held twice what the body reserved). A
    /// refused request's bytes, and the buffer's memory, go when its connection starts its lingering close.
    @Test func theParserHoldsABodyOnceAndLetsGoOfItsBytesOnRequest() {
        var parser = HTTPRequestParser()
        parser.append(Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 60000\r\n\r\n".utf8) + [UInt8](repeating: 0x20, count: 40_000))
        #expect(parser.next()?.head != nil)
        #expect(parser.next() == nil)
        #expect(parser.buffer.capacity == 0, "the 40 kB read's buffer went once its bytes were in the body")
        parser.append([UInt8](repeating: 0x20, count: 1000))
        #expect(parser.next() == nil)
        parser.append([UInt8](repeating: 0x20, count: 19_000))
        #expect(parser.next()?.body?.count == 60_000)
        // A small buffer is kept for the next request's head.
        parser.append(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(parser.next()?.head != nil)
        parser.append(Array("G".utf8))
        #expect(parser.buffer.capacity > 0)
        parser.discardBufferedBytes()
        #expect(parser.buffer.capacity == 0 && parser.bufferedByteCount == 0)
    }

    /// A large body arriving while others hold the budget is answered 503 with Retry-After before it is read;
    /// small bodies are not held back; once the first body is answered its room is free again.
    @Test func aLargeBodyThatDoesNotFitIsRefusedWithRetryAfterAndTheRoomReturns() throws {
        var configuration = TestServer.configuration()
        configuration.maxBufferedBodyBytes = 300_000
        let server = try TestServer.start(configuration)
        defer { server.stop() }
        let length = 200_000
        let holder = try RawClient(port: server.port)
        holder.send("POST /large HTTP/1.1\r\nHost: a\r\nContent-Length: \(length)\r\n\r\n" + String(repeating: "x", count: 1000))
        usleep(200_000)

        let refused = try RawClient(port: server.port)
        refused.send("POST /large HTTP/1.1\r\nHost: a\r\nContent-Length: \(length)\r\n\r\n")
        let busy = try #require(refused.readResponse())
        #expect(busy.status == 503)
        #expect(busy.header("Retry-After") == "1")
        #expect(busy.header("Content-Type") == "application/problem+json")
        #expect(busy.bodyText.contains("https://trust-insights.dev/problems/server-busy"))
        #expect(server.bodyBudgetRefusals == 1)

        let chunked = try RawClient(port: server.port)
        chunked.send("POST /large HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(chunked.readResponse()?.status == 503)

        let small = try RawClient(port: server.port)
        small.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello")
        #expect(small.readResponse()?.bodyText == "hello")

        holder.send(String(repeating: "x", count: length - 1000))
        #expect(holder.readResponse()?.bodyText == "\(length)")

        let after = try RawClient(port: server.port)
        after.send("POST /large HTTP/1.1\r\nHost: a\r\nContent-Length: \(length)\r\n\r\n" + String(repeating: "y", count: length))
        #expect(after.readResponse()?.bodyText == "\(length)")
        // A connection closed half-way through its body gives its room back as well.
        let abandoned = try RawClient(port: server.port)
        abandoned.send("POST /large HTTP/1.1\r\nHost: a\r\nContent-Length: \(length)\r\n\r\nzz")
        usleep(100_000)
        abandoned.reset()
        usleep(200_000)
        let last = try RawClient(port: server.port)
        last.send("POST /large HTTP/1.1\r\nHost: a\r\nContent-Length: \(length)\r\n\r\n" + String(repeating: "y", count: length))
        #expect(last.readResponse()?.bodyText == "\(length)")
        #expect(server.bodyBudgetRefusals == 2)
    }

    /// Bodies of 8 to 64 KiB reserve from a small budget of their own: in one shared budget, any client key holding
    /// unfinished evaluations on a few thousand connections took all of it, and a partner's label upload was answered
    /// 503 (regression probe, 6 December). Filling the small one leaves the large one's bodies alone.
    @Test func mediumBodiesCannotTakeTheRoomOfLargeOnes() throws {
        #expect(BodyBudget.smallTotal(besideLarge: 256 << 20) == 32 << 20)
        #expect(BodyBudget.smallTotal(besideLarge: 300_000) == 300_000)
        var configuration = TestServer.configuration()
        configuration.maxBufferedBodyBytes = 8 << 20  // the small budget: 1 MiB
        let server = try TestServer.start(configuration)
        defer { server.stop() }
        var holders: [RawClient] = []
        for _ in 0..<17 {  // 17 x 60,000 bytes fit in 1 MiB; an 18th does not
            let holder = try RawClient(port: server.port)
            holder.send("POST /large HTTP/1.1\r\nHost: a\r\nContent-Length: 60000\r\n\r\n" + String(repeating: "x", count: 100))
            holders.append(holder)
        }
        usleep(300_000)
        let refused = try RawClient(port: server.port)
        refused.send("POST /large HTTP/1.1\r\nHost: a\r\nContent-Length: 60000\r\n\r\n")
        #expect(refused.readResponse()?.status == 503)

        let large = try RawClient(port: server.port)
        large.send("POST /large HTTP/1.1\r\nHost: a\r\nContent-Length: 200000\r\n\r\n" + String(repeating: "y", count: 200_000))
        #expect(large.readResponse()?.bodyText == "200000", "a large body has its own room")
        let small = try RawClient(port: server.port)
        small.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 8192\r\n\r\n" + String(repeating: "z", count: 8192))
        #expect(small.readResponse()?.status == 200, "a body of 8 KiB reserves nothing")

        holders[0].send(String(repeating: "x", count: 59_900))
        #expect(holders[0].readResponse()?.bodyText == "60000")
        let next = try RawClient(port: server.port)
        next.send("POST /large HTTP/1.1\r\nHost: a\r\nContent-Length: 60000\r\n\r\n" + String(repeating: "w", count: 60_000))
        #expect(next.readResponse()?.bodyText == "60000", "the room came back")
        #expect(server.bodyBudgetRefusals == 1)
    }
}
