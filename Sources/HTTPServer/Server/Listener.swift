import CLinux
import Glibc

/// Listening sockets: a probe that fails when the port is taken, then one SO_REUSEPORT socket per loop.
enum Listener {
    static func host(_ text: String) throws(HTTPServerError) -> ListenHost {
        guard let host = ListenHost(text) else { throw .invalidAddress(text) }
        return host
    }

    /// Binds without SO_REUSEPORT, so that another process on the port makes start-up fail instead of silently
    /// sharing it; returns the actual port (resolving port 0).
    static func probe(host text: String, port: Int) throws(HTTPServerError) -> Int {
        let host = try host(text)
        let fd = try socket(for: host, flags: 0)
        defer { close(fd) }
        try bind(fd, host: host, text: text, port: port)
        return boundPort(fd)
    }

    static func boundPort(_ fd: Int32) -> Int {
        var address = SocketAddress()
        let status = address.withMutableSockAddr { getsockname(fd, $0, $1) }
        return status == 0 ? address.port : 0
    }

    static func open(host text: String, port: Int, backlog: Int) throws(HTTPServerError) -> Int32 {
        let host = try host(text)
        let fd = try socket(for: host, flags: Int32(SOCK_NONBLOCK.rawValue))
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, socklen_t(MemoryLayout<Int32>.size))
        do {
            try bind(fd, host: host, text: text, port: port)
        } catch {
            close(fd)
            throw error
        }
        guard listen(fd, Int32(backlog)) == 0 else {
            let error = errno
            close(fd)
            throw .socketFailure(operation: "listen", errno: error)
        }
        return fd
    }

    private static func socket(for host: ListenHost, flags: Int32) throws(HTTPServerError) -> Int32 {
        let family = host.family == .ipv4 ? AF_INET : AF_INET6
        let fd = Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | flags, 0)
        guard fd >= 0 else { throw .socketFailure(operation: "socket", errno: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if host.family == .ipv6 {
            // `::` serves IPv4 clients too, whatever the machine's net.ipv6.bindv6only says: one setting for a
            // dual-stack host. A specific IPv6 address is reachable over IPv6 only either way.
            var v6Only: Int32 = host.isUnspecified ? 0 : 1
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &v6Only, socklen_t(MemoryLayout<Int32>.size))
        }
        return fd
    }

    private static func bind(_ fd: Int32, host: ListenHost, text: String, port: Int) throws(HTTPServerError) {
        let address = SocketAddress(host: host, port: port)
        guard address.withSockAddr({ Glibc.bind(fd, $0, $1) }) == 0 else {
            let error = errno
            throw error == EADDRINUSE ? .addressInUse(host: host.urlHost, port: port) : .socketFailure(operation: "bind", errno: error)
        }
    }
}
