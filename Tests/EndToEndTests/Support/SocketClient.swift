import Glibc
import Foundation

/// A minimal HTTP/1.1 client over a POSIX socket to 127.0.0.1, for tests: sends bytes as given and reads one
/// response framed by Content-Length. It keeps the connection, so tests can pipeline or reuse it.
final class SocketClient {
    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    enum ClientError: Error { case connect(Int32), closed, malformed }

    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 { throw ClientError.connect(errno) }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }

    func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        send(Array(head.utf8) + (body ?? []))
        return try readResponse()
    }

    /// The next response; an interim `100 Continue` is skipped unless `skippingInterim` is false.
    func readResponse(skippingInterim: Bool = true) throws -> Response {
        while true {
            if let end = headerEnd() {
                let headText = String(decoding: buffer[0..<end], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw ClientError.malformed }
                let headers = lines.compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                let length = Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
                while buffer.count < end + 4 + length { try fill() }
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                if status == 100 && skippingInterim { continue }
                return Response(status: status, headers: headers, body: body)
            }
            try fill()
        }
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count <= 0 { throw ClientError.closed }
        buffer.append(contentsOf: chunk[0..<count])
    }
}
