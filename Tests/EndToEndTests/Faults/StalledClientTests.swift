import Foundation
import Glibc
import Testing
@testable import TrustInsightsApp

/// Slow and stalled clients: half-sent requests, a trickle of bytes, and a client that pipelines requests but
/// never reads the answers. None of them holds up anyone else, and each is cut off by its own deadline.
@Suite(.serialized) struct StalledClientTests {
    static func service() throws -> LiveService {
        try LiveService {
            $0.requestTimeoutSeconds = 1
            $0.writeTimeoutSeconds = 1
        }
    }

    @Test func stalledConnectionsDoNotDelayOtherClients() throws {
        // The stalled requests' deadline is 4 s, so an answer within 3 s proves nobody waited for it, while leaving
        // a sanitizer build room to answer the hoarder's pipelined requests on the same event loop first.
        let service = try LiveService {
            $0.requestTimeoutSeconds = 4
            $0.writeTimeoutSeconds = 1
        }
        let key = try service.key()
        // Twenty clients stop part-way through a request: in the head, and in the body. The body's senders hold a
        // key (one without is refused at once, before its body: WireEdgeTests).
        var stalled: [SocketClient] = []
        for index in 0..<20 {
            let client = try service.client()
            client.send(Array((index.isMultiple(of: 2)
                ? "POST /v1/evaluations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le"
                : "POST /v1/evaluations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"operationCategory\"").utf8))
            stalled.append(client)
        }
        // One client pipelines many requests for a large answer and never reads: the server stops reading from it
        // once its unsent output passes the high-water mark, instead of buffering without bound.
        let hoarder = try service.client()
        var pipelined: [UInt8] = []
        for _ in 0..<400 {
            pipelined += Array("GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\n\r\n".utf8)
        }
        hoarder.send(pipelined)

        let started = Date()
        #expect(try service.evaluate(key: key).insightIDs.count == 2)
        #expect(try service.client().request("GET", "/healthz").status == 200)
        #expect(Date().timeIntervalSince(started) < 3)

        // The half-sent requests run into the request deadline: 408, then closed.
        for client in stalled.prefix(2) {
            let response = try client.readResponse()
            #expect(response.status == 408)
            #expect(response.header("Content-Type") == "application/problem+json")
        }
        #expect(try service.evaluate(key: key).insightIDs.count == 2)
    }

    /// Slowloris: a byte every 150 ms keeps a connection busy but does not extend the deadline, which runs from
    /// the request's first byte.
    @Test func tricklingClientIsCutOffAtTheRequestDeadline() throws {
        let service = try Self.service()
        let client = try service.client()
        let request = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "a", count: 40))\r\n\r\n".utf8)
        let started = Date()
        var sent = 0
        var answer = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
        while sent < request.count && Date().timeIntervalSince(started) < 3 && poll(&answer, 1, 0) == 0 {
            client.send([request[sent]])
            sent += 1
            usleep(150_000)
        }
        #expect(sent < request.count)
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(Date().timeIntervalSince(started) < 2.5)
    }
}
