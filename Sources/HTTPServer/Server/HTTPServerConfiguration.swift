import Glibc

/// Everything the server can be told. Defaults are the production values of the issue.
public struct HTTPServerConfiguration: Sendable, Equatable {
    /// A numeric IPv4 or IPv6 address, or `localhost` (see `ListenHost`); `::` takes clients of both families.
    public var host = "127.0.0.1"
    /// 0 asks the kernel for a free port; read it back from `HTTPServer.boundPort`.
    public var port = 8080
    /// Event loops, one thread and one SO_REUSEPORT listener each.
    public var eventLoops = HTTPServerConfiguration.onlineProcessors
    public var maxConnections = 10_000
    public var maxRequestLineBytes = 8192
    public var maxHeaderBytes = 16384
    public var maxHeaderCount = 100
    public var defaultBodyLimit = 65536
    /// Bytes of bodies over 64 KiB all connections may hold at once, and an eighth of it for bodies of 8 to 64 KiB
    /// (`BodyBudget`); a request whose body does not fit is answered `503` with `Retry-After` before its body is read.
    public var maxBufferedBodyBytes = 256 * 1024 * 1024
    /// From a request's first byte to its last; trickling bytes does not extend it.
    public var requestTimeout = Duration.seconds(10)
    /// How long a keep-alive connection may sit between requests.
    public var idleTimeout = Duration.seconds(60)
    /// How long a response may take to drain to a slow reader.
    public var writeTimeout = Duration.seconds(10)
    public var shutdownGracePeriod = Duration.seconds(10)
    /// When draining begins, how long a keep-alive connection that is idle may still bring one request (answered
    /// with `Connection: close`) before it is closed: its client may be sending at that very moment, and a close
    /// then resets the connection under a request already sent.
    public var drainIdleGrace = Duration.milliseconds(100)
    /// After an error response, how long to keep reading (and discarding) so the client sees the response: a
    /// client that sends its whole body before reading (Python's urllib, Java's HttpURLConnection) would otherwise
    /// get a reset for its unread bytes, and lose the answer.
    public var lingerTimeout = Duration.seconds(5)
    /// How much of a refused body lingering reads at most: above the largest body a route allows (8 MiB for
    /// labels in the service), so a client sending a body just over a limit still gets its 413.
    public var lingerMaxBytes = 16 * 1024 * 1024
    public var listenBacklog = 1024
    /// Each connection's kernel send buffer (`SO_SNDBUF`; Linux doubles it for its own bookkeeping); nil leaves it
    /// to the kernel's autotuning, which grows a buffer a client does not drain up to `tcp_wmem`'s maximum (4 MiB
    /// by default). A fixed size bounds what clients that pipeline requests and never read pin in kernel memory:
    /// a thousand of them took 2 GB of the host's TCP memory to its pressure limit, where the kernel's writes
    /// stall every socket's. 256 KiB holds any answer but a large export whole.
    public var sendBufferBytes: Int? = 256 * 1024
    public var accessLog = true
    /// Access-log lines of refusals (4xx, 501, 505) per second, across the event loops (each takes its share, rounded up);
    /// 0 logs every one. See `AccessLogThrottle`.
    public var accessLogRefusedPerSecond = 100
    /// Incoming `X-Request-ID` values that hold one of these anywhere, in any letter case, are not adopted (a fresh
    /// ID is used instead): the ID is echoed and logged, so text shaped like a credential (an API key pasted into
    /// the wrong header, alone or after other text) must not be.
    public var requestIDRefusedMarkers: [String] = []
    /// Incoming `X-Request-ID` values holding this many ASCII letters and digits in all, upper and lower case
    /// letters among them, are not adopted either, whatever stands between them: a credential's random part, pasted
    /// without the prefix that marks it, with its separators changed (`ti.sandbox.k...`) or percent-encoded
    /// (`%5F`, `%2D`), is still the secret, and encoding only adds letters and digits. nil adopts any.
    public var requestIDRefusedLetterAndDigitCount: Int?
    /// Sent as `Cache-Control` on every response that sets none; nil sends nothing. An API whose answers depend on
    /// the caller sets `no-store`: RFC 9111 §4.2.2 lets a cache store a 200, 404 or 405 without being told to.
    public var defaultCacheControl: String?

    public init() {}

    public static var onlineProcessors: Int {
        max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    var parserLimits: HTTPParserLimits {
        HTTPParserLimits(
            maxRequestLineBytes: maxRequestLineBytes, maxHeaderBytes: maxHeaderBytes, maxHeaderCount: maxHeaderCount,
            defaultBodyLimit: defaultBodyLimit)
    }
}

extension Duration {
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
