import DetachedThreads
import Glibc
import Synchronization

/// The HTTP/1.1 server: `configuration.eventLoops` threads, each with an epoll loop and its own listener.
public final class HTTPServer: Sendable {
    private struct Lifecycle: Sendable {
        var started = false
        var boundPort = 0
        var wakeFDs: [Int32] = []
    }

    public let configuration: HTTPServerConfiguration
    private let shared: ServerShared
    private let lifecycle = Mutex(Lifecycle())

    /// `afterEachPass` runs on an event loop's thread at the end of each pass, after the handlers' own end-of-pass
    /// work (`LoopTasks`) and before the loop waits again, also after a wait that timed out (at least every 50 ms
    /// while the loop has connections, every second otherwise). Work that handlers put off so that a burst can share
    /// it is done there: the service commits the evaluation records of the pass together, and the answers they
    /// settle leave before the loop waits. Keep it short: the loop's connections wait for it.
    ///
    /// `accessLogIdentity` adds who each request says it comes from to its access-log line (see `AccessLogIdentity`).
    public init(
        configuration: HTTPServerConfiguration, router: Router, metrics: MetricsRegistry,
        logSink: any LogSink = StandardErrorLogSink(), afterEachPass: (@Sendable () -> Void)? = nil,
        accessLogIdentity: AccessLogIdentity? = nil
    ) {
        self.configuration = configuration
        self.shared = ServerShared(
            configuration: configuration, router: router, metrics: metrics, logSink: logSink, afterEachPass: afterEachPass,
            accessLogIdentity: accessLogIdentity)
    }

    /// Throws what `start()` would throw for an address it cannot bind (a fixed port another process holds, an
    /// address this host does not have), without keeping the port: for a caller with work to do first that is
    /// not worth doing for a server that cannot listen. `start()` checks again, as the port may be taken between.
    public static func checkCanListen(host: String, port: Int) throws(HTTPServerError) {
        _ = try Listener.probe(host: host, port: port)
    }

    /// Binds and listens, starts the event loops, and returns. Throws `HTTPServerError.addressInUse` if the
    /// port is taken.
    public func start() throws(HTTPServerError) {
        let alreadyStarted = lifecycle.withLock { state in
            defer { state.started = true }
            return state.started
        }
        if alreadyStarted { throw .alreadyStarted }
        // A fixed port is probed first so that a port taken by anyone fails start-up instead of being shared
        // through SO_REUSEPORT. Port 0 needs no probe (the kernel hands out a free port), and must not have one:
        // between the probe's close and the first bind, another server could be given the same port.
        var port = configuration.port
        if port != 0 { port = try Listener.probe(host: configuration.host, port: port) }
        var listeners: [Int32] = []
        var loops: [EventLoop] = []
        do throws(HTTPServerError) {
            for _ in 0..<max(1, configuration.eventLoops) {
                let fd = try Listener.open(host: configuration.host, port: port, backlog: configuration.listenBacklog)
                if port == 0 { port = Listener.boundPort(fd) }
                listeners.append(fd)
                loops.append(try EventLoop(shared: shared, listenFD: fd))
            }
        } catch {
            for fd in listeners { close(fd) }
            for loop in loops { close(loop.wakeFD) }
            throw error
        }
        lifecycle.withLock { state in
            state.boundPort = port
            state.wakeFDs = loops.map(\.wakeFD)
        }
        shared.runningLoops.store(loops.count, ordering: .sequentiallyConsistent)
        for (index, loop) in loops.enumerated() {
            let shared = shared
            DetachedThread.spawn(name: "http-loop-\(index)") {
                loop.run()
                shared.runningLoops.subtract(1, ordering: .sequentiallyConsistent)
            }
        }
    }

    /// The port actually listened on (useful with port 0); 0 before `start()`.
    public var boundPort: Int { lifecycle.withLock { $0.boundPort } }

    public var isDraining: Bool { shared.draining.load(ordering: .relaxed) }

    /// Connections the end of the shutdown grace period closed with a request under way or an answer not yet sent.
    /// Those lingering after their answer (an error's, while the server reads what the client still sends) or idle
    /// lose nothing and do not count.
    public var connectionsCutOff: Int { shared.connectionsCutOff.load(ordering: .relaxed) }

    /// Connections open right now, across all loops.
    public var openConnections: Int { shared.openConnections.load(ordering: .relaxed) }

    /// Stops accepting, closes idle connections, lets in-flight requests finish (answered with
    /// `Connection: close`), and closes everything left when the grace period ends. Returns at once.
    public func beginShutdown() {
        shared.draining.store(true, ordering: .sequentiallyConsistent)
        // Under the lock: the eventfds are closed (and their numbers reusable) only once the loops are gone.
        lifecycle.withLock { state in
            for fd in state.wakeFDs {
                var one: UInt64 = 1
                _ = write(fd, &one, 8)
            }
        }
    }

    /// Waits until every event loop has finished; false if `deadline` came first.
    public func waitUntilStopped(deadline: ContinuousClock.Instant) -> Bool {
        // Polling every 10 ms keeps a waiting main thread from competing with the loops for the CPU.
        while shared.runningLoops.load(ordering: .sequentiallyConsistent) > 0 {
            let now = ContinuousClock.now
            if now >= deadline { return false }
            let remaining = now.duration(to: deadline)
            usleep(remaining < .milliseconds(10) ? UInt32(remaining.nanoseconds / 1000) : 10_000)
        }
        lifecycle.withLock { state in
            for fd in state.wakeFDs { close(fd) }
            state.wakeFDs = []
        }
        return true
    }

    public func waitUntilStopped(timeout: Duration) -> Bool {
        waitUntilStopped(deadline: ContinuousClock.now.advanced(by: timeout))
    }
}
