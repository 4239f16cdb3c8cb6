import Glibc

/// A socket address of either family in `sockaddr_storage`, so listening and accepting need no per-family code.
struct SocketAddress {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)

    /// Room for whatever `accept` or `getsockname` writes.
    init() {}

    init(host: ListenHost, port: Int) {
        let networkPort = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        switch host.family {
        case .ipv4:
            store(sockaddr_in(), family: AF_INET, \.sin_family, port: networkPort, \.sin_port, host: host.bytes, \.sin_addr)
        case .ipv6:
            store(sockaddr_in6(), family: AF_INET6, \.sin6_family, port: networkPort, \.sin6_port, host: host.bytes, \.sin6_addr)
        }
    }

    private mutating func store<Address, HostAddress>(
        _ empty: Address, family: Int32, _ familyField: WritableKeyPath<Address, sa_family_t>,
        port: in_port_t, _ portField: WritableKeyPath<Address, in_port_t>,
        host: [UInt8], _ hostField: WritableKeyPath<Address, HostAddress>
    ) {
        var address = empty
        address[keyPath: familyField] = sa_family_t(family)
        address[keyPath: portField] = port
        withUnsafeMutableBytes(of: &address[keyPath: hostField]) { $0.copyBytes(from: host) }
        withUnsafeMutableBytes(of: &storage) { storage in
            withUnsafeBytes(of: address) { storage.copyMemory(from: $0) }
        }
        length = socklen_t(MemoryLayout<Address>.size)
    }

    var family: Int32 { Int32(storage.ss_family) }

    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }

    /// For calls that write an address: `length` goes in as the room available and comes back as the size written.
    mutating func withMutableSockAddr<Result>(_ body: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Result) -> Result {
        length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutableBytes(of: &storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
    }

    var port: Int {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET: Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
            case AF_INET6: Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
            default: 0
            }
        }
    }

    /// The host as text, an IPv4-mapped IPv6 address (an IPv4 client of a dual-stack `::` listener) as plain IPv4, so
    /// a client's address reads the same whichever way the server listens.
    var hostText: String {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET:
                return ListenHost.text(family: .ipv4, bytes: withUnsafeBytes(of: raw.load(as: sockaddr_in.self).sin_addr) { Array($0) })
            case AF_INET6:
                let bytes = withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { Array($0) }
                if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                    return ListenHost.text(family: .ipv4, bytes: Array(bytes[12...]))
                }
                return ListenHost.text(family: .ipv6, bytes: bytes)
            default:
                return ""
            }
        }
    }
}
