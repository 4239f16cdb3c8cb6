import HTTPServer
import InsightCore
import InsightModel
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
    let models: RegistryModelProvider
    let signer: PayloadSigner
    let log: EventLog
    let demoClientSecret: APIKeySecret?

    init(configuration: ServiceConfiguration, logSink: any LogSink, environment: CommandEnvironment) throws {
        self.configuration = configuration
        let log = EventLog(sink: logSink)
        self.log = log
        // A mistyped folder is a setting to correct, named as such (exit 2), not a file error deep in a loader.
        for (key, folder) in [("configDir", configuration.configDir), ("modelsDir", configuration.modelsDir)]
        where !FileSystem.isDirectory(atPath: folder) {
            throw CommandLineError.configuration(key: key, message: "\(folder) is not a folder")
        }
        do {
            store = try SQLiteStore(
                directory: configuration.dataDir, commitWindowMicroseconds: configuration.commitWindowMicroseconds,
                holdsEvaluations: true, evaluationHoldMicroseconds: configuration.evaluationHoldMicroseconds)
        } catch {
            throw CommandLineError.failure("cannot open the data folder \(configuration.dataDir): \(error)")
        }
        let catalogue: FeatureCatalogue
        do {
            catalogue = try FeatureCatalogue.load(from: configuration.configDir + "/features")
        } catch {
            throw CommandLineError.failure("feature catalogue: \(error)")
        }
        let velocityConfiguration: VelocityConfiguration
        do {
            let path = configuration.configDir + "/velocity.json"
            guard let bytes = try FileSystem.readFile(atPath: path) else { throw CommandLineError.failure("\(path): no such file") }
            velocityConfiguration = try VelocityConfiguration.load(json: bytes)
        } catch let error as CommandLineError {
            throw error
        } catch {
            throw CommandLineError.failure("velocity configuration: \(error)")
        }
        let rateLimits: RateLimitPolicy
        do {
            let path = configuration.configDir + "/rate-limits.json"
            guard let bytes = try FileSystem.readFile(atPath: path) else { throw CommandLineError.failure("\(path): no such file") }
            rateLimits = try RateLimitPolicy.load(json: bytes)
        } catch let error as CommandLineError {
            throw error
        } catch {
            throw CommandLineError.failure("rate limit configuration: \(error)")
        }
        do {
            // One unreadable model must not take every category down: it is left out (its insight answers
            // insightUnavailable) and logged; a reload with the file mended brings it in.
            let registry = try ModelRegistry(
                manifestPath: configuration.modelsDir + "/manifest.json", schemaCheck: CatalogueSchemaCheck(catalogue: catalogue),
                skippingInvalidModels: true)
            for refusal in registry.snapshot.refused {
                log.error("model refused", [("file", refusal.file), ("reason", refusal.reason)])
            }
            models = RegistryModelProvider(registry: registry, catalogue: catalogue)
        } catch {
            throw CommandLineError.failure("models: \(error)")
        }
        do {
            signer = try PayloadSigner(directory: configuration.dataDir + "/signing-keys")
        } catch {
            throw CommandLineError.failure("signing keys in \(configuration.dataDir)/signing-keys: \(error)")
        }
        demoClientSecret = try FirstStart.provisionIfEmpty(store: store, environment: environment)

        let velocity = VelocityTracker(configuration: velocityConfiguration)
        let now = Clock.nowMilliseconds()
        var replayed = 0
        try store.forEachRecentEvaluation(since: now - velocity.replayWindowMilliseconds) { _, account, device, counterparty, time, high in
            velocity.replay(.init(account: account, device: device, counterparty: counterparty, time: time), wasHigh: high)
            replayed += 1
        }
        log.info("velocity restored", [("evaluations", String(replayed))])

        let metrics = MetricsRegistry()
        self.metrics = metrics
        let store = store
        let readiness = Readiness(storageCheck: { store.isWritable() })
        self.readiness = readiness
        let hasher = SubjectHasher(source: store)
        let authorizations = try AuthorizationRegistry(
            store: store, cooldownMilliseconds: Int64(configuration.authorizationCooldownSeconds * 1000))
        let authenticator = try Authenticator(store: store)
        let deadline = Int64(configuration.consumptionDeadlineSeconds * 1000)
        let admission = AdmissionControl(policy: rateLimits, deadlineMilliseconds: deadline) { keyID, now in
            // Sustained non-compliance: the key answers 403 access-revoked until `keys reinstate`.
            do {
                try store.setKeyStatus(keyID: keyID, to: .suspended, now: now)
                authenticator.refreshIfDue(now: now, force: true)
                log.warning("key suspended for not reporting consumption", [("keyID", keyID)])
                return true
            } catch {
                log.error("key suspension could not be stored; tried again on the key's next request", [("keyID", keyID), ("reason", "\(error)")])
                return false
            }
        }
        var judged = 0
        try store.forEachEvaluationForCompliance(since: now - admission.compliance.replayWindowMilliseconds) { keyID, createdAt, late in
            admission.compliance.replay(keyID: keyID, createdAt: createdAt, reportLate: late)
            judged += 1
        }
        log.info("compliance restored", [("evaluations", String(judged))])
        let evaluator = Evaluator(.init(
            catalogue: catalogue, models: models, velocity: velocity, hasher: hasher, authorizations: authorizations,
            recorder: store, admission: admission))

        let serverBox = ServerBox()
        var router = Router()
        OperationsRoutes(readiness: readiness, metrics: metrics, server: { serverBox.server }).register(in: &router)
        ServiceRoutes(.init(
            authenticator: authenticator, evaluator: evaluator, models: models,
            authorizations: authorizations, hasher: hasher, signer: signer, readiness: readiness,
            consumption: ConsumptionIntake(store: store, deadlineMilliseconds: deadline, compliance: admission.compliance),
            labels: LabelIntake(store: store), admission: admission,
            metrics: LabelMetrics(source: store, policy: configuration.metricsPolicy))
        ).register(in: &router)
        // An event loop's pass records the evaluations of every ready connection; releasing them together at its end
        // lets them share one commit (docs/BENCHMARKS.md).
        let heldWrites = store
        server = HTTPServer(
            configuration: HTTPServerConfiguration(configuration), router: router, metrics: metrics, logSink: logSink,
            afterEachPass: { heldWrites.releaseHeldWrites() })
        serverBox.server = server
        let modelGeneration = metrics.gauge("trust_insights_model_generation", help: "Reloads of the model manifest since start (1 = as started).")
        let trackedAccounts = metrics.gauge("trust_insights_velocity_tracked_accounts", help: "Accounts held by the velocity tracker.")
        let limiterStates = metrics.gauge("trust_insights_rate_limit_states", help: "Rate limiter states held (keys, devices, insight types).")
        let complianceKeys = metrics.gauge("trust_insights_compliance_tracked_keys", help: "Keys whose consumption reporting is being tracked.")
        let modelsRefused = metrics.gauge("trust_insights_models_refused", help: "Models of the manifest left out at start because they could not be loaded.")
        let storeBatches = metrics.counter("trust_insights_store_batches_total", help: "Group-commit transactions run by the store's writer.")
        let storeWrites = metrics.counter("trust_insights_store_writes_total", help: "Writes committed by the store's writer (writes / batches is the average batch).")
        let storeCatchUps = metrics.counter("trust_insights_store_checkpoint_catchups_total", help: "Checkpoints the writer ran itself because the WAL outgrew its limit.")
        let storeExpiredHolds = metrics.counter("trust_insights_store_expired_holds_total", help: "Batches of held evaluations the writer committed because no event loop released them within 2 ms.")
        let models = models
        metrics.onCollect {
            let activity = store.writerActivity
            storeBatches.advance(to: UInt64(activity.batches))
            storeWrites.advance(to: UInt64(activity.writes))
            storeCatchUps.advance(to: UInt64(activity.checkpointCatchUps))
            storeExpiredHolds.advance(to: UInt64(activity.expiredHolds))
            limiterStates.set(Double(admission.trackedStates))
            complianceKeys.set(Double(admission.compliance.trackedKeys))
            modelGeneration.set(Double(models.generation))
            modelsRefused.set(Double(models.registry.snapshot.refused.count))
            trackedAccounts.set(Double(velocity.trackedAccounts))
        }
    }

    /// Binds and starts serving; readiness turns ready once listening.
    func start() throws {
        do {
            try server.start()
        } catch {
            throw CommandLineError.failure("cannot listen on \(configuration.urlHost):\(configuration.port): \(error)")
        }
        readiness.set(.ready)
        log.info("listening", [("address", "\(configuration.urlHost):\(server.boundPort)")])
    }

    /// SIGHUP: reloads the signing keys and the models, each as one atomic swap; a bad manifest or key directory
    /// leaves the old ones in service.
    func reload() {
        do {
            try signer.reload()
            log.info("signing keys reloaded", [("activeKeyID", signer.activeKeyID)])
        } catch {
            log.error("signing keys reload refused", [("reason", "\(error)")])
        }
        do {
            try models.reload()
            log.info("models reloaded", [("generation", String(models.generation))])
        } catch {
            log.error("models reload refused", [("reason", error.description)])
        }
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

/// Lets routes built before the server exists ask it for its state later. Weak: the server's router holds the
/// routes that hold this box, and a strong reference back made a cycle that kept every stopped server, with its
/// store (open SQLite connections), models and catalogue, alive for the life of the process.
final class ServerBox: @unchecked Sendable {
    private let lock = Mutex(())
    private weak var stored: HTTPServer?

    var server: HTTPServer? {
        get { lock.withLock { _ in stored } }
        set { lock.withLock { _ in stored = newValue } }
    }
}
