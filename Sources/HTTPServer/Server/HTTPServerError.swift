#if canImport(Glibc)
import Glibc
#endif

/// Why the server could not start.
public enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    case addressInUse(host: String, port: Int)
    case invalidAddress(String)
    case socketFailure(operation: String, errno: Int32)
    case alreadyStarted

    public var description: String {
        switch self {
        case .addressInUse(let host, let port): "address \(host):\(port) is already in use"
        case .invalidAddress(let host): "cannot listen on '\(host)': not a numeric IPv4 or IPv6 address (such as 127.0.0.1, 0.0.0.0, ::1 or ::)"
        case .socketFailure(let operation, let errno): "\(operation) failed: \(String(cString: strerror(errno))) (errno \(errno))"
        case .alreadyStarted: "the server was already started"
        }
    }
}
