@testable import HTTPServer
import Testing

@Suite("Listen host")
struct ListenHostTests {
    @Test(arguments: [
        ("127.0.0.1", ListenHost.Family.ipv4, "127.0.0.1", "127.0.0.1", "127.0.0.1"),
        ("localhost", .ipv4, "127.0.0.1", "127.0.0.1", "127.0.0.1"),
        ("0.0.0.0", .ipv4, "0.0.0.0", "0.0.0.0", "127.0.0.1"),
        ("::1", .ipv6, "::1", "[::1]", "[::1]"),
        ("[::1]", .ipv6, "::1", "[::1]", "[::1]"),
        ("::", .ipv6, "::", "[::]", "[::1]"),
        ("[::]", .ipv6, "::", "[::]", "[::1]"),
        ("fd00:0:0:0:0:0:0:2", .ipv6, "fd00::2", "[fd00::2]", "[fd00::2]"),
        ("::ffff:10.0.0.1", .ipv6, "::ffff:10.0.0.1", "[::ffff:10.0.0.1]", "[::ffff:10.0.0.1]"),
    ])
    func readsNumericAddressesOfBothFamilies(text: String, family: ListenHost.Family, description: String, urlHost: String, localURLHost: String) throws {
        let host = try #require(ListenHost(text))
        #expect(host.family == family)
        #expect(host.description == description)
        #expect(host.urlHost == urlHost)
        #expect(host.localURLHost == localURLHost)
        #expect(host.bytes.count == (family == .ipv4 ? 4 : 16))
    }

    @Test(arguments: ["", "example.com", "localhost.localdomain", "1.2.3", "1.2.3.4.5", "256.0.0.1", "[127.0.0.1]", "[]",
                      "::1::", "[::1", "::1]", "fe80::1%eth0", " 127.0.0.1", "127.0.0.1 "])
    func refusesAnythingElse(text: String) {
        #expect(ListenHost(text) == nil)
    }

    @Test func onlyTheWildcardsAreUnspecified() throws {
        #expect(try #require(ListenHost("0.0.0.0")).isUnspecified)
        #expect(try #require(ListenHost("::")).isUnspecified)
        #expect(try !#require(ListenHost("::1")).isUnspecified)
        #expect(try !#require(ListenHost("127.0.0.1")).isUnspecified)
    }

    @Test func aServerRefusesToStartOnANameWithAClearError() {
        var configuration = TestServer.configuration()
        configuration.host = "example.com"
        #expect(throws: HTTPServerError.invalidAddress("example.com")) { try TestServer.start(configuration) }
        #expect(HTTPServerError.invalidAddress("example.com").description.contains("IPv6"))
    }
}
