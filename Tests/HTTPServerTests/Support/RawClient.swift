import Glibc
@testable import HTTPServer

/// A blocking TCP client (to 127.0.0.1 unless told another numeric address) with a receive timeout, for the cases
/// URLSession cannot send.
final class RawClient {
    let fd: Int32
    private var received: [UInt8] = []
    private(set) var peerClosed = false
    /// The peer closed with a reset (ECONNRESET), not an orderly FIN.
    private(set) var wasReset = false

    init(host: String = "127.0.0.1", port: Int, receiveTimeoutMilliseconds: Int = 3000, receiveBufferBytes: Int32? = nil) throws {
        guard let listenHost = ListenHost(host) else { throw RawClientError.connectFailed(EINVAL) }
        let address = SocketAddress(host: listenHost, port: port)
        fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBufferBytes {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: receiveTimeoutMilliseconds / 1000, tv_usec: (receiveTimeoutMilliseconds % 1000) * 1000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = address.withSockAddr { connect(fd, $0, $1) }
        guard result == 0 else {
            close(fd)
            throw RawClientError.connectFailed(errno)
        }
    }

    private var closed = false

    deinit { if !closed { close(fd) } }

    /// Closes with a reset (SO_LINGER 0), as a client that gives up does.
    func reset() {
        guard !closed else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(fd)
        closed = true
    }

    /// Sends everything; returns false if the peer reset the connection first.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until one whole response is buffered, the peer closes, or the receive timeout passes.
    func readResponse(bodyless: Bool = false) -> ParsedResponse? {
        while true {
            if let (response, consumed) = ParsedResponse.parse(received, bodyless: bodyless) {
                received.removeFirst(consumed)
                return response
            }
            guard receiveMore() else { return nil }
        }
    }

    /// Reads until the peer closes (true) or the receive timeout passes (false).
    func waitForClose() -> Bool {
        while receiveMore() {}
        return peerClosed
    }

    var unreadBytes: [UInt8] { received }

    private func receiveMore() -> Bool {
        guard !peerClosed else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            received.append(contentsOf: chunk[..<count])
            return true
        }
        if count < 0 && errno == ECONNRESET { wasReset = true }
        if count == 0 || wasReset { peerClosed = true }
        return false
    }

    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }
}

enum RawClientError: Error {
    case connectFailed(Int32)
}
