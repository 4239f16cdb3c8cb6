import HTTPServer
import InsightCore
import InsightService
import InsightStore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Everything a running service holds, assembled from the configuration; `serve` and the end-to-end tests both use
/// it. Start-up order matters: the signal mask is set by the caller before this creates any thread.
final class ServiceRuntime: Sendable {
    let configuration: ServiceConfiguration
    let store: SQLiteStore
    let metrics: MetricsRegistry
    let readiness: Readiness
    let server: HTTPServer
    let log: EventLog
    let demoClientSecret: APIKeySecret?

    init(configuration: ServiceConfiguration, logSink: any LogSink, environment: CommandEnvironment) throws {
        self.configuration = configuration
        let log = EventLog(sink: logSink)
        self.log = log
        do {
            store = try SQLiteStore(directory: configuration.dataDir)
        } catch {
            throw CommandLineError.failure("cannot open the data folder \(configuration.dataDir): \(error)")
        }
        demoClientSecret = try FirstStart.provisionIfEmpty(store: store, environment: environment)
        let metrics = MetricsRegistry()
        self.metrics = metrics
        let store = store
        let readiness = Readiness(storageCheck: { store.isWritable() })
        self.readiness = readiness

        let serverBox = ServerBox()
        var router = Router()
        OperationsRoutes(readiness: readiness, metrics: metrics, server: { serverBox.server }).register(in: &router)
        server = HTTPServer(configuration: HTTPServerConfiguration(configuration), router: router, metrics: metrics, logSink: logSink)
        serverBox.server = server
    }

    /// Binds and starts serving; readiness turns ready once listening.
    func start() throws {
        do {
            try server.start()
        } catch {
            throw CommandLineError.failure("cannot listen on \(configuration.host):\(configuration.port): \(error)")
        }
        readiness.set(.ready)
        log.info("listening", [("address", "\(configuration.host):\(server.boundPort)")])
    }

    /// Drains and stops: readiness false, no new connections, in-flight requests finish, storage is checkpointed.
    func stop() -> Bool {
        readiness.set(.draining)
        server.beginShutdown()
        let drained = server.waitUntilStopped(timeout: .milliseconds(Int64(configuration.shutdownGraceSeconds * 1000)))
        store.checkpoint()
        log.info("stopped", [("drained", drained ? "true" : "false")])
        return drained
    }
}

/// Lets routes built before the server exists ask it for its state later.
final class ServerBox: @unchecked Sendable {
    private let lock = Mutex(())
    private var stored: HTTPServer?

    var server: HTTPServer? {
        get { lock.withLock { _ in stored } }
        set { lock.withLock { _ in stored = newValue } }
    }
}

extension ServiceRuntime {
    /// SIGHUP: reloads what can change while running. Models are added by the model runtime.
    func reload() {
        log.info("reload", [("result", "nothing to reload yet")])
    }
}
