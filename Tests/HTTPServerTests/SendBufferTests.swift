import Foundation
import Glibc
@testable import HTTPServer
import Testing

/// Each accepted connection's kernel send buffer is fixed (`sendBufferBytes`), so that clients that never read
/// cannot pin the kernel's autotuned maximum each (a thousand of them took 2 GB of TCP memory). The test finds the
/// server's end of its own connection among this process's descriptors: the socket whose peer is the client.
@Suite struct SendBufferTests {
    /// The server-side descriptor of the connection whose client end is `client`, once the server has accepted it.
    func serverSocket(of client: RawClient) throws -> Int32 {
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client.fd, $0, &length) }
        }
        for _ in 0..<200 {
            for name in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
                guard let fd = Int32(name), fd != client.fd else { continue }
                var peer = sockaddr_in()
                var peerLength = socklen_t(MemoryLayout<sockaddr_in>.size)
                let found = withUnsafeMutablePointer(to: &peer) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &peerLength) }
                }
                if found == 0, peer.sin_family == sa_family_t(AF_INET), peer.sin_port == local.sin_port,
                    peer.sin_addr.s_addr == local.sin_addr.s_addr
                {
                    return fd
                }
            }
            usleep(5_000)
        }
        throw RawClientError.connectFailed(ENOENT)
    }

    func sendBuffer(of fd: Int32) -> Int32 {
        var size: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, &length)
        return size
    }

    func serverSendBuffer(_ configuration: HTTPServerConfiguration) throws -> Int32 {
        let server = try TestServer.start(configuration)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        #expect(client.send("GET /items/1 HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(client.readResponse()?.bodyText == "1")
        return sendBuffer(of: try serverSocket(of: client))
    }

    /// Linux doubles the value set, for its bookkeeping (socket(7)); autotuning would start from tcp_wmem's
    /// default (16 KiB unless tuned) and grow.
    @Test func acceptedConnectionsGetTheConfiguredSendBuffer() throws {
        #expect(try serverSendBuffer(TestServer.configuration()) == 2 * 256 * 1024)
        var configuration = TestServer.configuration()
        configuration.sendBufferBytes = 96 * 1024
        #expect(try serverSendBuffer(configuration) == 2 * 96 * 1024)
    }
}
