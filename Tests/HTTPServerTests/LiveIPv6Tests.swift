import Glibc
@testable import HTTPServer
import Testing

/// Whether this machine can bind the IPv6 loopback: containers run without IPv6 at times, and there these tests
/// have nothing to check.
private let ipv6LoopbackAvailable: Bool = {
    let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let address = SocketAddress(host: ListenHost("::1")!, port: 0)
    return address.withSockAddr { bind(fd, $0, $1) } == 0
}()

@Suite("Live server: IPv6 listeners", .serialized, .enabled(if: ipv6LoopbackAvailable, "no IPv6 loopback on this machine"))
struct LiveIPv6Tests {
    private static func start(host: String, port: Int = 0) throws -> TestServer {
        var configuration = TestServer.configuration()
        configuration.host = host
        configuration.port = port
        var router = SampleRoutes.router()
        router.add(.get, "/peer") { _, context in HTTPResponse.text(.ok, context.remoteAddress) }
        return try TestServer.start(configuration, router: router)
    }

    private static func peer(host: String, port: Int) throws -> String? {
        let client = try RawClient(host: host, port: port)
        client.send("GET /peer HTTP/1.1\r\nHost: x\r\n\r\n")
        return client.readResponse()?.bodyText
    }

    @Test(arguments: ["::1", "[::1]"])
    func servesOnTheIPv6Loopback(host: String) throws {
        let server = try Self.start(host: host)
        defer { server.stop() }
        #expect(server.port > 0)
        #expect(try Self.peer(host: "::1", port: server.port) == "::1")
        let client = try RawClient(host: "::1", port: server.port)
        client.send("GET /items/7 HTTP/1.1\r\nHost: [::1]\r\n\r\n")
        #expect(client.readResponse()?.bodyText == "7")
    }

    @Test func theIPv6WildcardTakesClientsOfBothFamiliesAndNamesIPv4OnesPlainly() throws {
        let server = try Self.start(host: "::")
        defer { server.stop() }
        #expect(try Self.peer(host: "::1", port: server.port) == "::1")
        // An IPv4 client reaches `::` as ::ffff:127.0.0.1; the request context names it as IPv4.
        #expect(try Self.peer(host: "127.0.0.1", port: server.port) == "127.0.0.1")
    }

    @Test func aTakenIPv6PortFailsStartUp() throws {
        let first = try Self.start(host: "::1")
        defer { first.stop() }
        // Named as in a URL, so the port does not read as part of the address (regression probe, 6 December).
        let error = #expect(throws: HTTPServerError.addressInUse(host: "[::1]", port: first.port)) {
            let second = try Self.start(host: "::1", port: first.port)
            second.stop()
        }
        #expect(error?.description == "address [::1]:\(first.port) is already in use")
    }
}
