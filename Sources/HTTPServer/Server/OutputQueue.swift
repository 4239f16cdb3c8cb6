import Glibc

/// Response bytes waiting for the socket, written with one gather write per flush (headers and body together).
struct OutputQueue {
    private var segments: [[UInt8]] = []
    private var headOffset = 0
    private(set) var byteCount = 0

    var isEmpty: Bool { byteCount == 0 }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        segments.append(bytes)
        byteCount += bytes.count
    }

    enum FlushResult: Equatable {
        case drained
        case blocked
        case failed(Int32)
    }

    /// Writes as much as the socket takes with sendmsg (a writev that also carries MSG_NOSIGNAL).
    mutating func flush(to fd: Int32) -> FlushResult {
        while byteCount > 0 {
            let written = writeOnce(fd)
            if written < 0 {
                let error = errno
                if error == EINTR { continue }
                return error == EAGAIN || error == EWOULDBLOCK ? .blocked : .failed(error)
            }
            consume(written)
        }
        return .drained
    }

    /// Everything queued, for tests that run a connection without a socket.
    mutating func takeAll() -> [UInt8] {
        var all: [UInt8] = []
        all.reserveCapacity(byteCount)
        for (index, segment) in segments.enumerated() {
            all.append(contentsOf: index == 0 ? segment[headOffset...] : segment[...])
        }
        segments.removeAll(keepingCapacity: true)
        headOffset = 0
        byteCount = 0
        return all
    }

    private func writeOnce(_ fd: Int32) -> Int {
        let count = min(segments.count, 64)
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
            // The arrays stay alive and unmoved for the call: `segments` is not mutated until sendmsg returns.
            for index in 0..<count {
                let segment = segments[index]
                let offset = index == 0 ? headOffset : 0
                segment.withUnsafeBytes { raw in
                    vectors[index] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + offset),
                        iov_len: raw.count - offset)
                }
            }
            var message = msghdr()
            message.msg_iov = vectors.baseAddress
            message.msg_iovlen = count
            return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
        }
    }

    private mutating func consume(_ written: Int) {
        var remaining = written
        byteCount -= written
        while remaining > 0 {
            let available = segments[0].count - headOffset
            if remaining >= available {
                remaining -= available
                segments.removeFirst()
                headOffset = 0
            } else {
                headOffset += remaining
                remaining = 0
            }
        }
        if segments.isEmpty { segments.removeAll(keepingCapacity: true) }
    }
}
