import Glibc

/// The numeric address a server listens on: IPv4 (`127.0.0.1`, `0.0.0.0`), IPv6 (`::1`, `::`, also written in
/// brackets as in a URL), or `localhost`, which means 127.0.0.1. Names are not resolved: a listener that depended on
/// DNS at start-up would bind to whatever the resolver said that day.
public struct ListenHost: Sendable, Hashable, CustomStringConvertible {
    public enum Family: Sendable, Hashable {
        case ipv4
        case ipv6
    }

    public let family: Family
    /// The address in network byte order: 4 bytes for IPv4, 16 for IPv6.
    let bytes: [UInt8]

    public init?(_ text: String) {
        // Host names compare without regard to case (RFC 4343), and `localhost.` is the same name fully qualified.
        let lowered = text.lowercased()
        var numeric = lowered == "localhost" || lowered == "localhost." ? "127.0.0.1" : text
        if numeric.hasPrefix("["), numeric.hasSuffix("]"), numeric.count > 2 {
            numeric = String(numeric.dropFirst().dropLast())
            guard numeric.contains(":") else { return nil }
        }
        var v4 = in_addr()
        if inet_pton(AF_INET, numeric, &v4) == 1 {
            family = .ipv4
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, numeric, &v6) == 1 {
            family = .ipv6
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// Why no TCP client could reach a listener on this address, for an address that parses but is no place to
    /// listen; nil for one that is. Said when the setting is read: binding refused some of these only after the data
    /// folder was opened (exit 1, which a supervisor restarts), and accepted the others with nobody able to connect.
    public var unusableReason: String? {
        switch family {
        case .ipv4:
            if bytes == [255, 255, 255, 255] { return "is the broadcast address, which no TCP client can connect to" }
            if bytes[0] >= 224 && bytes[0] < 240 { return "is a multicast address, which no TCP client can connect to" }
        case .ipv6:
            if bytes[0] == 0xFF { return "is a multicast address, which no TCP client can connect to" }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                let v4 = Self.text(family: .ipv4, bytes: Array(bytes[12...]))
                return "is an IPv4-mapped address, on which an IPv6 listener takes no IPv4 client: listen on \(v4) instead"
            }
            if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 {
                return "is a link-local address, which needs the interface it is on (a zone such as %eth0, which this setting does not take): listen on :: or another address"
            }
        }
        return nil
    }

    /// 0.0.0.0 or `::`: every interface. `::` also takes IPv4 clients (as IPv4-mapped addresses), see `Listener`.
    public var isUnspecified: Bool { bytes.allSatisfy { $0 == 0 } }

    /// The address as `inet_ntop` writes it (`::1`, `127.0.0.1`).
    public var description: String {
        Self.text(family: family, bytes: bytes)
    }

    /// As it appears in a URL's authority (RFC 3986 section 3.2.2): IPv6 in brackets.
    public var urlHost: String {
        family == .ipv6 ? "[\(description)]" : description
    }

    /// A host a client on this machine can reach the listener at: the loopback address in place of a wildcard.
    public var localURLHost: String {
        guard isUnspecified else { return urlHost }
        return family == .ipv6 ? "[::1]" : "127.0.0.1"
    }

    static func text(family: Family, bytes: [UInt8]) -> String {
        var output = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family == .ipv4 ? AF_INET : AF_INET6, raw.baseAddress, &output, socklen_t(output.count))
        }
        guard written != nil else { return "" }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
