import CLinux
import Glibc

/// Listening sockets: a probe that fails when the port is taken, then one SO_REUSEPORT socket per loop.
enum Listener {
    static func address(host: String, port: Int) throws(HTTPServerError) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        let numeric = host == "localhost" ? "127.0.0.1" : host
        guard inet_pton(AF_INET, numeric, &address.sin_addr) == 1 else { throw .invalidAddress(host) }
        return address
    }

    /// Binds without SO_REUSEPORT, so that another process on the port makes start-up fail instead of silently
    /// sharing it; returns the actual port (resolving port 0).
    static func probe(host: String, port: Int) throws(HTTPServerError) -> Int {
        var address = try address(host: host, port: port)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socketFailure(operation: "socket", errno: errno) }
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let error = errno
            throw error == EADDRINUSE ? .addressInUse(host: host, port: port) : .socketFailure(operation: "bind", errno: error)
        }
        return boundPort(fd)
    }

    static func boundPort(_ fd: Int32) -> Int {
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: actual.sin_port))
    }

    static func open(host: String, port: Int, backlog: Int) throws(HTTPServerError) -> Int32 {
        var address = try address(host: host, port: port)
        let fd = socket(
            AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socketFailure(operation: "socket", errno: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let error = errno
            close(fd)
            throw error == EADDRINUSE ? .addressInUse(host: host, port: port) : .socketFailure(operation: "bind", errno: error)
        }
        guard listen(fd, Int32(backlog)) == 0 else {
            let error = errno
            close(fd)
            throw .socketFailure(operation: "listen", errno: error)
        }
        return fd
    }

    static func peerAddress(_ address: sockaddr_in) -> String {
        var addr = address.sin_addr
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &addr, &text, socklen_t(INET_ADDRSTRLEN)) != nil else { return "" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
