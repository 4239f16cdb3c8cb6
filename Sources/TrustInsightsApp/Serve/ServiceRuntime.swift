import HTTPServer
import InsightCore
import InsightCrypto
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
    let velocity: VelocityTracker
    /// The open-file limit once its soft limit is raised to the hard one; nil where it could not be read.
    let openFileLimit: OpenFileLimit?
    private let dataFolderLock: DataFolderLock
    /// Set by SIGTERM or SIGINT: a velocity replay still running at start-up stops, and `stop` follows.
    private let startUpCancelled = Atomic<Bool>(false)

    /// `settingSource` names where a setting came from (`ConfigurationLoader.source`), for errors found here.
    init(
        configuration: ServiceConfiguration, logSink: any LogSink, environment: CommandEnvironment,
        settingSource: (String) -> String = { $0 }
    ) throws {
        self.configuration = configuration
        let log = EventLog(sink: logSink)
        self.log = log
        // A mistyped folder is a setting to correct, named as such (exit 2), not a file error deep in a loader.
        for (key, folder) in [("configDir", configuration.configDir), ("modelsDir", configuration.modelsDir)]
        where !FileSystem.isDirectory(atPath: folder) {
            throw CommandLineError.configuration(key: settingSource(key), message: "\(folder) is not a folder")
        }
        // The configuration files are settings like default.json's: invalid ones stop start-up with exit status 2,
        // naming the file and the JSON path of the value. They and the models are read before the data folder is
        // touched, so that a start refused for them creates no folder and migrates no database.
        let catalogue: FeatureCatalogue
        do {
            catalogue = try FeatureCatalogue.load(from: configuration.featureCatalogueFolder)
        } catch {
            throw CommandLineError.configuration(key: "feature catalogue", message: error.description)
        }
        let others = FeatureCatalogue.otherFiles(in: configuration.featureCatalogueFolder)
        if !others.isEmpty {
            log.warning("feature catalogue folder holds files that are not catalogues", [
                ("folder", .text(configuration.featureCatalogueFolder)),
            ] + EventLog.listed("files", others) + [
                ("action", "only <category>.json for the five operation categories is read (\(OperationCategory.allCases.map { $0.rawValue + ".json" }.joined(separator: ", "))); the other files change nothing: rename an edit meant to count, move the rest out"),
            ])
        }
        let velocityPath = configuration.velocitySettingsFile
        let velocityConfiguration = try Self.loadConfigurationFile(velocityPath) {
            try VelocityConfiguration.load(json: $0)
        }
        do {
            try velocityConfiguration.check(against: catalogue)
        } catch {
            throw CommandLineError.configuration(key: velocityPath, message: Self.located(error.path, error.message))
        }
        let rateLimits = try Self.loadConfigurationFile(configuration.rateLimitsFile) {
            try RateLimitPolicy.load(json: $0)
        }
        let manifestPath = configuration.modelsDir + "/manifest.json"
        do {
            // One unreadable model must not take every category down: it is left out (its insight answers
            // insightUnavailable) and logged; a reload with the file mended brings it in.
            let registry = try ModelRegistry(
                manifestPath: manifestPath, schemaCheck: CatalogueSchemaCheck(catalogue: catalogue),
                skippingInvalidModels: true)
            let snapshot = registry.snapshot
            for refusal in snapshot.refused {
                log.error("model refused", [("file", .text(refusal.file)), ("reason", .text(refusal.reason))])
            }
            // Serving without a single model would answer every insight insightUnavailable while reporting ready,
            // and owe consumption reports for answers that carry nothing: a deployment mistake, said at once. (A
            // manifest that lists none is refused as such by the registry, here and on reload alike.)
            if snapshot.loadedCount == 0 {
                throw CommandLineError.configuration(
                    key: manifestPath,
                    message: "none of its \(snapshot.refused.count) models could be loaded (each is named in a 'model refused' line above)")
            }
            models = RegistryModelProvider(registry: registry, catalogue: catalogue)
        } catch let error as CommandLineError {
            throw error
        } catch let error as ModelRegistryError {
            // The key already names the manifest; a model's own file is named in the message.
            throw CommandLineError.configuration(key: manifestPath, message: error.file == manifestPath ? error.reason : error.description)
        } catch {
            throw CommandLineError.configuration(key: manifestPath, message: "\(error)")
        }
        // The store exists before the readiness it reports to; the checkpointer's notice goes through this.
        let storageNotice = LateCallback()
        // Memory the settings ask for is reserved before the data folder is touched: refused later, the start stopped
        // after a first start had printed demo keys (found by an operator probe under `ulimit -v`).
        let optOutFilter: AuthorizationRegistry.FilterReservation
        do {
            optOutFilter = try AuthorizationRegistry.FilterReservation(bytes: configuration.authorizationOptOutFilterBytes)
        } catch {
            throw CommandLineError.configuration(
                key: settingSource("authorizationOptOutFilterBytes"),
                message: "cannot reserve \(error.bytes) bytes of memory for the opt-out filter")
        }
        // A port another process holds stops the start here, before a first start makes the data folder and
        // prints demo keys whose curl example would never come (lifecycle probe, 6 December); `start` binds again.
        do {
            try HTTPServer.checkCanListen(host: configuration.host, port: configuration.port)
        } catch {
            if let held = DataFolderLock.refusalWhileHeld(dataDir: configuration.dataDir) { throw held }
            throw CommandLineError.failure("cannot listen on \(configuration.urlHost):\(configuration.port): \(error)")
        }
        dataFolderLock = try DataFolderLock(dataDir: configuration.dataDir)
        if let previous = dataFolderLock.uncleanlyEndedOwner {
            // A start after a kill read exactly like a clean one (operator probe, 7 December).
            log.warning("the last run did not stop cleanly", [
                ("previousProcess", .number(previous)),
                ("walBytes", .number(Self.fileSize(configuration.dataDir + "/" + SQLiteStore.fileName + "-wal"))),
                ("cause", "it was killed (SIGKILL, out of memory), crashed or lost its host, or was a build before 7 December, which left its process ID at every stop"),
                ("recovery", "SQLite replays its write-ahead log as the database opens; velocity windows are rebuilt from the stored evaluations as after any start"),
            ])
        }
        let folderState = DataFolderState(dataDir: configuration.dataDir)
        try folderState.checkDatabaseBeforeOpening()
        do {
            let databasePath = configuration.dataDir + "/" + SQLiteStore.fileName
            var migrationStarted: Int64?
            store = try SQLiteStore(
                directory: configuration.dataDir, fullSync: configuration.syncEveryCommit,
                commitWindowMicroseconds: configuration.commitWindowMicroseconds,
                holdsEvaluations: true
            ) { [log] error in
                if let error {
                    log.error("checkpoint failing", [
                        ("database", .text(databasePath)), ("error", .text(error)),
                        ("action", "writes still succeed into the WAL, which grows until the disk reserve stops them: make the database file writable again (its mode, owner, an immutable flag, a read-only remount)"),
                    ])
                } else {
                    log.info("checkpoint working again", [("database", .text(databasePath))])
                }
            } filesReplaced: {
                storageNotice()
            } migrating: { [log] from, to in
                // An upgrade over a large database can take a while before the listening line: say what is running.
                // A new data folder's schema is created the same way, from version 0.
                migrationStarted = Clock.nowMilliseconds()
                log.info(from == 0 ? "creating database" : "migrating database", [
                    ("database", .text(databasePath)), ("fromSchemaVersion", .number(from)), ("toSchemaVersion", .number(to)),
                ])
            }
            if let migrationStarted {
                log.info("database ready", [
                    ("database", .text(databasePath)), ("schemaVersion", .number(SQLiteStore.schemaVersion)),
                    ("milliseconds", .number(Int(Clock.nowMilliseconds() - migrationStarted))),
                ])
            }
        } catch {
            let advice = DamagedDatabase.advice(for: error, databasePath: configuration.dataDir + "/" + SQLiteStore.fileName)
            throw CommandLineError.failure("cannot open the data folder \(configuration.dataDir): \(error)\(advice)")
        }
        try folderState.checkSigningKeys(store: store)
        do {
            signer = try PayloadSigner(directory: configuration.dataDir + "/signing-keys", switched: { [log] kid in
                log.info("signing key switched", [("activeKeyID", .text(kid)), ("reason", "the staged key's time came")])
            })
        } catch {
            throw CommandLineError.failure("signing keys in \(configuration.dataDir)/signing-keys: \(error)")
        }
        Self.warnOfOtherEntries(in: configuration.dataDir + "/signing-keys", log: log)
        let store = store
        let databasePath = store.path
        demoClientSecret = try Self.reading(databasePath) { try FirstStart.provisionIfEmpty(store: store, environment: environment, log: log) }
        try Self.reading(databasePath) { try TenantIntegrity.report(store, log: log) }

        let openFiles = store.filesOpenToOthers()
        if !openFiles.isEmpty {
            // Not refused: a restore that left 0644 behind is common and the data is intact. But the files hold the
            // tenants' evaluations and keyed subject hashes, which no other user of the host should read.
            log.warning("database files readable by other users", [
                ("files", .list(openFiles)),
                ("action", "chmod 600 them (the service creates them so; a restore such as sqlite3 .backup may not)"),
            ])
        }

        // A tenant the rate limits name that has no key is most likely misspelt, and its override would never apply
        // (configuration probe, 7 December). Warned, not refused: its keys may be created after the start.
        if !rateLimits.tenants.isEmpty, let keys = try? store.allKeys() {
            let known = Set(keys.map(\.tenant.rawValue))
            let unknown = rateLimits.tenants.keys.filter { !known.contains($0) }.sorted()
            if !unknown.isEmpty {
                log.warning("rate limits name tenants that have no keys", [
                    ("file", .text(configuration.rateLimitsFile)), ("tenants", .text(unknown.joined(separator: ","))),
                    ("action", "check their spelling against 'trust-insights keys list': a tenant's limit applies to its keys, those created later included"),
                ])
            }
        }

        // Restored by `start`, once listening: a week of evaluations can take longer to replay than a start-up
        // probe waits, and only evaluations need it.
        let velocity = VelocityTracker(configuration: velocityConfiguration, awaitingReplay: true)
        self.velocity = velocity
        let now = Clock.nowMilliseconds()

        let metrics = MetricsRegistry()
        self.metrics = metrics
        // Every reload series from the start, at 0: an alert on an increase of `refused` needs the series to exist
        // before the first refusal.
        for part in ["models", "signingKeys"] {
            for applied in [true, false] { _ = Self.reloadCounter(metrics, part: part, applied: applied) }
        }
        let storageLog = log
        let dataDir = configuration.dataDir
        let readiness = Readiness(storageCheck: { store.isWritable() }, recoveryCheckMilliseconds: 1000, storageChanged: { writable in
            if writable {
                storageLog.info("storage writable again", [("dataDir", .text(dataDir))])
            } else if let damage = store.corruptionFound() {
                storageLog.error("storage not writable", [
                    ("dataDir", .text(dataDir)), ("databaseDamaged", .text(damage)),
                    ("action", "SQLite found the database file damaged while the service had it open: most often a backup copied over the live file (cp onto it) or a disk fault. Writes answer 503 and /readyz is 503 until a restart, so that nothing more is acknowledged into a file the next start may refuse. Stop the service, check the file (sqlite3 trust-insights.sqlite 'PRAGMA integrity_check'), restore it from a backup into the stopped folder if it is damaged, and start again; never write into the database file of a running service"),
                ])
            } else if let replaced = store.replacedFile() {
                let action = replaced.hasSuffix("-shm")
                    // Nothing is lost yet: the service's own index still maps the WAL, and a restart rebuilds one.
                    ? "\(replaced), the WAL's index, was deleted, moved or replaced while the service had it mapped; writes answer 503 and /readyz is 503 so that nothing more is acknowledged that could be lost: restart the service (stop it and start it again; SQLite rebuilds the index from the WAL, and nothing committed is lost), and run no other program on the database until then (the trust-insights commands refuse to). Never delete the -shm file of a database in use"
                    : "\(replaced) was deleted, moved or replaced while the service had it open; writes answer 503 and /readyz is 503 until that same file is back where it was, or the service is restarted with the database restored: stop it, put the database back (or restore it from a backup), and start it again"
                storageLog.error("storage not writable", [
                    ("dataDir", .text(dataDir)), ("replacedFile", .text(replaced)), ("action", .text(action)),
                ])
            } else {
                var fields: [(String, EventLog.Value)] = [
                    ("dataDir", .text(dataDir)), ("freeBytes", store.availableBytes().map { .number(Int(clamping: $0)) } ?? "unknown"),
                ]
                // Free space is one cause; a file whose owner or mode changed (a restore as another user) is another,
                // and the log should name it rather than send the operator looking at a disk with room to spare.
                fields.append(("reserveBytes", .number(Int(SQLiteStore.minimumFreeBytes))))
                if let available = store.availableBytes(), available < SQLiteStore.minimumFreeBytes {
                    fields.append(("reason", .text(StoreError.diskFull(availableBytes: available).description)))
                    // The service's own WAL may be what holds the disk: grown while a reader or a failing checkpoint
                    // held it back, it is cut to nothing within a second of that ending, and writes resume.
                    if let wal = store.walBytes(), wal > 0 { fields.append(("walBytes", .number(Int(clamping: wal)))) }
                } else if let reason = store.lastWriteFailureReason() {
                    fields.append(("lastWriteError", .text(reason)))
                }
                let unwritable = store.unwritableFiles()
                if !unwritable.isEmpty { fields.append(("unwritableFiles", .list(unwritable))) }
                fields.append(("action", "writes answer 503 and /readyz is 503 until a write succeeds: check free space, the permissions of the data folder and its database files, and whether another process holds the database (a long read transaction keeps the WAL from being checkpointed, and it grows until the reserve stops writes; the service cuts its WAL back once nothing holds it)"))
                storageLog.error("storage not writable", fields)
            }
        })
        self.readiness = readiness
        // Files replaced under an idle service: said now, through the same path as a write that found them.
        storageNotice.set { readiness.noteStorageWrite(succeeded: false, now: Clock.nowMilliseconds()) }
        let hasher = SubjectHasher(source: LoggedSubjectKeySource(store, log: log, databasePath: databasePath))
        let authorizations = try Self.reading(databasePath) {
            try AuthorizationRegistry(
                store: store, cooldownMilliseconds: configuration.authorizationCooldownMilliseconds,
                memoryCapacity: configuration.authorizationOptOutsInMemory, overflowFilter: optOutFilter,
                monotonic: { Clock.monotonicMilliseconds() }, now: Clock.nowMilliseconds())
        }
        if configuration.authorizationCooldownSeconds < Self.shortCooldownSeconds {
            // Allowed (tests and demos want it), but the operator should know what it gives up.
            log.warning("authorization cooldown is short", [
                // In milliseconds, as the registry keeps it: whole seconds rounded up would print 3600 for 3599.5,
                // the very value that does not warn.
                ("authorizationCooldownMilliseconds", .number(Int(configuration.authorizationCooldownMilliseconds))),
                ("effect", configuration.authorizationCooldownMilliseconds == 0
                    ? "a person's opt-out takes effect at once: no time to notice being coached into switching protection off (default 86400)"
                    : "a person's opt-out takes effect within the hour: little time to notice being coached into switching protection off (default 86400)"),
            ])
        }
        let keysLog = log
        let authenticator = try Self.reading(databasePath) {
            try Authenticator(store: store) { change in keysLog.info("api keys changed", Self.fields(of: change)) }
        }
        let deadline = Int64(configuration.consumptionDeadlineSeconds * 1000)
        if configuration.consumptionDeadlineSeconds < Self.shortDeadlineSeconds {
            // Allowed (tests want it), but an app on a mobile network cannot report in time: its reports are flagged
            // late, count as missing, and compliance cuts and then suspends its key.
            log.warning("consumption deadline is short", [
                ("consumptionDeadlineMilliseconds", .number(Int(deadline))),
                ("effect", "reports later than this count as missing for compliance; below a minute, apps that report promptly are cut and then suspended (default 600)"),
            ])
        }
        let suspensions = metrics.counter(
            "trust_insights_keys_suspended_total",
            help: "Client keys this process suspended for not reporting consumption (each until `keys reinstate`).")
        let admission = AdmissionControl(policy: rateLimits, deadlineMilliseconds: deadline) { keyID, now in
            // Sustained non-compliance: the key answers 403 access-revoked until `keys reinstate`.
            do {
                let suspended = try store.suspendKeyIfActive(keyID: keyID, now: now)
                authenticator.refreshIfDue(now: now, force: true)
                if suspended {
                    suspensions.increment()
                    log.warning("key suspended for not reporting consumption", [("keyID", .text(keyID))])
                } else {
                    // Revoked (or suspended) from the command line since this process last read the keys: that stands.
                    log.info("key not suspended: it is no longer active", [("keyID", .text(keyID))])
                }
                return true
            } catch {
                log.error("key suspension could not be stored; tried again on the key's next request", [("keyID", .text(keyID)), ("reason", "\(error)")])
                return false
            }
        }
        var judged = 0
        try Self.reading(databasePath) {
            try store.forEachEvaluationForCompliance(since: now - admission.compliance.replayWindowMilliseconds) { keyID, createdAt, late in
                admission.compliance.replay(keyID: keyID, createdAt: createdAt, reportLate: late)
                judged += 1
            }
        }
        log.info("compliance restored", [("evaluations", .number(judged))])
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
            labels: LabelIntake(store: store, quota: rateLimits.labels), admission: admission,
            metrics: LabelMetrics(source: store, policy: configuration.metricsPolicy))
        ).register(in: &router)
        // An event loop's pass records the evaluations of every ready connection and commits them together at its
        // end, on its own thread, so their answers leave in the same pass (docs/BENCHMARKS.md, "The event loop
        // commits its own records").
        let heldWrites = store
        var serverConfiguration = HTTPServerConfiguration(configuration)
        let files = OpenFileLimit.raised()
        openFileLimit = files
        if let files, let open = OpenFileLimit.openDescriptors(),
            files.connectionRoom(openDescriptors: open) < min(OpenFileLimit.fewestConnections, serverConfiguration.maxConnections)
        {
            // A cap of one or two connections serves nobody in practice, and a load balancer's probe would take the
            // only slot: better refuse to start than pass for up.
            throw CommandLineError.failure(
                "the open-file limit (\(files.soft)) leaves room for \(files.connectionRoom(openDescriptors: open)) connections, fewer than \(OpenFileLimit.fewestConnections): raise the hard open-file limit (systemd LimitNOFILE, docker --ulimit nofile, ulimit -Hn) to at least \(open + OpenFileLimit.reserve + OpenFileLimit.fewestConnections)")
        }
        if let files, let open = OpenFileLimit.openDescriptors(), files.connectionRoom(openDescriptors: open) < serverConfiguration.maxConnections {
            // A cap the process cannot reach never reclaims idle connections: fitted under the limit, it does.
            serverConfiguration.maxConnections = files.connectionRoom(openDescriptors: open)
            log.warning("open-file limit below maxConnections", [
                ("openFileLimit", .number(files.soft)), ("openFiles", .number(open)),
                ("maxConnections", .number(configuration.maxConnections)),
                ("effectiveMaxConnections", .number(serverConfiguration.maxConnections)),
                ("action", "raise the hard open-file limit (systemd LimitNOFILE, docker --ulimit nofile, ulimit -Hn) to maxConnections plus \(open + OpenFileLimit.reserve), or lower maxConnections; until then the cap is effectiveMaxConnections"),
            ])
        }
        server = HTTPServer(
            configuration: serverConfiguration, router: router, metrics: metrics, logSink: logSink,
            afterEachPass: { heldWrites.commitHeldWrites() }, accessLogIdentity: .keyID)
        serverBox.server = server
        let modelGeneration = metrics.gauge("trust_insights_model_generation", help: "Reloads of the model manifest since start (1 = as started).")
        let trackedAccounts = metrics.gauge("trust_insights_velocity_tracked_accounts", help: "Accounts held by the velocity tracker.")
        let trackedCounterparties = metrics.gauge(
            "trust_insights_velocity_tracked_counterparties", help: "Counterparties held by the velocity tracker (up to maxTrackedCounterparties).")
        // By environment: sandbox entries go first, so a sandbox load test's evictions say nothing about production's.
        let evictedAccountsHelp = "Accounts the velocity tracker dropped from a full shard while they still held counts (their rules fire late until the windows refill): raise maxTrackedAccounts if the production series grows."
        let evictedCounterpartiesHelp = "Counterparties dropped from a full shard while they still held counts: raise maxTrackedCounterparties if the production series grows."
        let evictedAccounts = DeploymentEnvironment.allCases.map { environment in
            metrics.counter("trust_insights_velocity_evicted_accounts_total", help: evictedAccountsHelp, labels: ["environment": environment.rawValue])
        }
        let evictedCounterparties = DeploymentEnvironment.allCases.map { environment in
            metrics.counter("trust_insights_velocity_evicted_counterparties_total", help: evictedCounterpartiesHelp, labels: ["environment": environment.rawValue])
        }
        let optOutsHeld = metrics.gauge(
            "trust_insights_authorization_opt_outs_held",
            help: "Opt-outs in force or pending, held in memory for the evaluation path (about 230 bytes each, up to authorizationOptOutsInMemory).")
        let optOutsInStoreOnly = metrics.gauge(
            "trust_insights_authorization_opt_outs_in_store_only",
            help: "About how many distinct opt-outs were marked in the filter since start for want of room in memory (counted, then estimated from the filter's fill; opt-ins do not lower it): evaluations of their subjects read the store.")
        let limiterStates = metrics.gauge("trust_insights_rate_limit_states", help: "Rate limiter states held (keys, devices, insight types).")
        let complianceKeys = metrics.gauge("trust_insights_compliance_tracked_keys", help: "Keys whose consumption reporting is being tracked.")
        let modelsRefused = metrics.gauge("trust_insights_models_refused", help: "Models of the manifest left out at start because they could not be loaded; 0 again once a reload brings every model in.")
        let storeBatches = metrics.counter("trust_insights_store_batches_total", help: "Group-commit transactions run by the store's writer.")
        let storeWrites = metrics.counter("trust_insights_store_writes_total", help: "Writes committed by the store's writer (writes / batches is the average batch).")
        let storeCatchUps = metrics.counter("trust_insights_store_checkpoint_catchups_total", help: "Checkpoints the writer ran itself because the WAL outgrew its limit.")
        let storeCheckpointFailures = metrics.counter(
            "trust_insights_store_checkpoint_failures_total",
            help: "Checkpoints of the writer that failed with an error: the database file refuses writes and the WAL grows.")
        let walFrames = metrics.gauge(
            "trust_insights_store_wal_frames",
            help: "Pages in the WAL as of the last commit, copied back or not: the WAL starts over at the first commit after a checkpoint copied it all, so at idle this keeps its last value; above 1000 for long, checkpoints are failing.")
        let storageWritable = metrics.gauge("trust_insights_storage_writable", help: "1 while the last write or check of the data folder succeeded, 0 while storage refuses writes (disk full, lock held).")
        let models = models
        metrics.onCollect {
            let activity = store.writerActivity
            storeBatches.advance(to: UInt64(activity.batches))
            storeWrites.advance(to: UInt64(activity.writes))
            storeCatchUps.advance(to: UInt64(activity.checkpointCatchUps))
            storeCheckpointFailures.advance(to: UInt64(activity.checkpointFailures))
            walFrames.set(Double(activity.walFrames))
            limiterStates.set(Double(admission.trackedStates(now: Clock.nowMilliseconds())))
            complianceKeys.set(Double(admission.compliance.trackedKeys))
            optOutsHeld.set(Double(authorizations.heldCount))
            optOutsInStoreOnly.set(Double(authorizations.overflowCount))
            modelGeneration.set(Double(models.generation))
            modelsRefused.set(Double(models.registry.snapshot.refused.count))
            trackedAccounts.set(Double(velocity.trackedAccounts))
            trackedCounterparties.set(Double(velocity.trackedCounterparties))
            for (index, environment) in DeploymentEnvironment.allCases.enumerated() {
                let evicted = velocity.evicted(in: environment)
                evictedAccounts[index].advance(to: UInt64(evicted.accounts))
                evictedCounterparties[index].advance(to: UInt64(evicted.counterparties))
            }
            storageWritable.set(readiness.lastKnownStorageWritable ? 1 : 0)
        }
    }

    /// Below this an opt-out protects too little to go unremarked at start-up.
    static let shortCooldownSeconds = 3600.0
    /// Under a minute, a report sent promptly over a slow network, or after a retry, can be late.
    static let shortDeadlineSeconds = 60.0

    /// Not refused: loading ignores them, and a note or a stale temporary file harms nothing. A copy of a private key
    /// is another matter, and a key renamed by hand is one the service no longer publishes.
    private static func warnOfOtherEntries(in directory: String, log: EventLog) {
        guard let others = try? SigningKeyFiles(directory: directory).otherEntries(), !others.isEmpty else { return }
        var fields: [(String, EventLog.Value)] = [("folder", .text(directory))] + EventLog.listed("files", others.map { $0.name })
        let open = others.filter { $0.readableByOthers }.map { $0.name }
        if !open.isEmpty { fields += EventLog.listed("readableByOthers", open) }
        fields.append(("action", "only files named es256-<milliseconds>-<kid>.pem are keys, and the rest are ignored: move anything else out of the folder (above all a copy of a private key), and give a key restored under another name its own name back, or what it signed fails to verify"))
        log.warning("signing-keys folder holds files that are not keys", fields)
    }

    /// Start-up reads of the database, failing with its path: a damaged file is then a file to restore.
    private static func reading<Result>(_ path: String, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as CommandLineError {
            throw error
        } catch let error as StoreError {
            // A first start writes its demo tenant: a full disk stops it there, which is no reading problem.
            guard case .diskFull = error else { throw CommandLineError.failure("cannot read the database \(path): \(error)") }
            throw CommandLineError.failure("cannot write the database \(path): the disk is full: \(error)")
        } catch {
            throw CommandLineError.failure(
                "cannot read the database \(path): \(error)\(DamagedDatabase.advice(for: error, databasePath: path))")
        }
    }

    private static func loadConfigurationFile<Loaded>(_ path: String, _ parse: ([UInt8]) throws -> Loaded) throws(CommandLineError) -> Loaded {
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.readFile(atPath: path)
        } catch {
            // The reason without the path, which the key already names (it was said twice).
            throw .configuration(key: path, message: "cannot be read: \(error.reasonText)")
        }
        guard let bytes else { throw .configuration(key: path, message: "no such file") }
        do {
            return try parse(bytes)
        } catch let error as any LocatedConfigurationError {
            throw .configuration(key: path, message: located(error.path, error.message))
        } catch {
            throw .configuration(key: path, message: "\(error)")
        }
    }

    /// "at /rules/0/counter: no counter of that name", or the message alone for the document as a whole.
    private static func located(_ pointer: String, _ message: String) -> String {
        pointer.isEmpty ? message : "at \(pointer): \(message)"
    }

    /// Binds and starts serving, then restores the velocity state from the stored evaluations of its longest
    /// window. Meanwhile `/healthz` answers, `/readyz` says starting, and evaluations answer `notAvailable` (503,
    /// `Retry-After`); every other route serves. Readiness turns ready once the state is whole.
    /// Listens, calls `listening` (the port is bound and `/healthz` answers), then replays the velocity state, which
    /// on a large folder takes minutes: whatever waits for the port must not wait for that too.
    func start(listening: () -> Void = {}) throws {
        do {
            try server.start()
        } catch {
            throw CommandLineError.failure("cannot listen on \(configuration.urlHost):\(configuration.port): \(error)")
        }
        // One line that says what this process serves, for an operator reading the log after a deploy.
        let snapshot = models.registry.snapshot
        log.info("listening", [
            ("address", "\(configuration.urlHost):\(server.boundPort)"), ("version", .text(RootCommand.version)),
            ("dataDir", .text(configuration.dataDir)), ("modelsDir", .text(configuration.modelsDir)),
            ("configDir", .text(configuration.configDir)), ("modelsLoaded", .number(snapshot.loadedCount)),
            ("modelsRefused", .number(snapshot.refused.count)), ("signingKeyID", .text(signer.activeKeyID)),
            ("maxConnections", .number(server.configuration.maxConnections)),
        ] + openFileLimitFields() + stagedKeyFields() + folderOnDiskFields())
        listening()
        guard try restoreVelocity() else { return }
        readiness.set(.ready)
        // One check of the data folder now, not at the first probe or write: a restart onto a full disk is logged,
        // and the writable gauge says so, even where nothing polls /readyz (systemd; a health check on /healthz).
        _ = readiness.isStorageWritable(now: Clock.nowMilliseconds())
    }

    /// Replays the stored evaluations into the velocity tracker; false if a signal cut it short.
    private func restoreVelocity() throws -> Bool {
        let started = Clock.nowMilliseconds()
        let velocity = velocity
        var replayed = 0
        var complete = true
        _ = try Self.reading(store.path) {
            try store.forEachRecentEvaluation(since: started - velocity.replayWindowMilliseconds) { row in
                velocity.replay(.init(partition: row.partition, account: row.account, device: row.device,
                                      counterparty: row.counterparty, time: row.createdAt), wasHigh: row.wasHigh)
                replayed += 1
                // A load of an atomic every row is noise next to the row's decoding.
                if replayed % 4096 == 0, startUpCancelled.load(ordering: .relaxed) { complete = false; return false }
                return true
            }
        }
        let fields: [(String, EventLog.Value)] = [
            ("evaluations", .number(replayed)), ("milliseconds", .number(Int(Clock.nowMilliseconds() - started))),
        ]
        guard complete else {
            log.info("velocity restore stopped by a signal", fields)
            return false
        }
        velocity.finishRestoring()
        log.info("velocity restored", fields)
        return true
    }

    /// SIGTERM or SIGINT during start-up: stops the velocity replay so `stop` is not kept waiting for it.
    func cancelStartUp() {
        startUpCancelled.store(true, ordering: .relaxed)
    }

    /// Each folder as the system reaches it, where that reads otherwise than the path given (a link, `..` after a
    /// link): an operator folding `linked/../data` in their head would look in another folder (paths probe,
    /// 6 December).
    private func folderOnDiskFields() -> [(String, EventLog.Value)] {
        [("dataDir", configuration.dataDir), ("modelsDir", configuration.modelsDir), ("configDir", configuration.configDir)]
            .compactMap { name, folder -> (String, EventLog.Value)? in
                guard let resolved = realpath(folder, nil) else { return nil }
                defer { free(resolved) }
                let onDisk = String(cString: resolved)
                return AbsolutePath.spelling(of: AbsolutePath.of(folder)) == onDisk ? nil : (name + "OnDisk", .text(onDisk))
            }
    }

    /// 0 for a file that is not there: a clean stop leaves the WAL empty or removes it.
    private static func fileSize(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    private func openFileLimitFields() -> [(String, EventLog.Value)] {
        guard let openFileLimit else { return [] }
        return [("openFileLimit", .number(openFileLimit.soft))]
            + (openFileLimit.raisedFrom.map { [("openFileLimitRaisedFrom", .number($0))] } ?? [])
    }

    /// The keys staged to sign later, for the log lines that name the active one: one field each however many
    /// there are (files put there by hand may stage more than one), none when there is none.
    private func stagedKeyFields() -> [(String, EventLog.Value)] {
        let staged = signer.publishedKeys.filter { $0.status == .staged }
        guard !staged.isEmpty else { return [] }
        return [
            ("stagedKeyIDs", .text(staged.map(\.kid).joined(separator: ","))),
            ("stagedKeysSignFrom", .text(staged.map { Timestamp.iso8601(milliseconds: $0.signsFromMilliseconds) }.joined(separator: ","))),
        ]
    }

    /// SIGHUP: reloads the signing keys and the models, each as one atomic swap; a bad manifest or key directory
    /// leaves the old ones in service.
    func reload() {
        do {
            let previousActiveKeyID = signer.activeKeyID
            let previousKeys = Self.keySet(signer)
            try signer.reload()
            countReload("signingKeys", applied: true)
            // Whether anything changed, and what signed before: every SIGHUP logged the same line whether a rotation
            // had happened or not (operations probe, 7 December).
            let replaced = previousActiveKeyID == signer.activeKeyID ? [] : [("previousActiveKeyID", EventLog.Value.text(previousActiveKeyID))]
            log.info(
                "signing keys reloaded",
                [("activeKeyID", .text(signer.activeKeyID))] + replaced + stagedKeyFields()
                    + [("keysChanged", .flag(previousKeys != Self.keySet(signer)))])
        } catch {
            countReload("signingKeys", applied: false)
            // What still signs, as the success line says it: the refusal alone left the operator guessing
            // (operator probe, 7 December).
            log.error("signing keys reload refused", [("reason", "\(error)"), ("activeKeyID", .text(signer.activeKeyID))] + stagedKeyFields())
        }
        do {
            let previous = models.registry.snapshot
            try models.reload()
            countReload("models", applied: true)
            let snapshot = models.registry.snapshot
            let changes = snapshot.changes(since: previous)
            log.info("models reloaded", [
                ("generation", .number(models.generation)), ("modelsLoaded", .number(snapshot.loadedCount)),
                ("modelsRefused", .number(snapshot.refused.count)),
                ("changes", .text(changes.isEmpty ? "none" : changes.joined(separator: "; "))),
            ])
        } catch {
            countReload("models", applied: false)
            let snapshot = models.registry.snapshot
            log.error("models reload refused", [
                ("reason", .text(error.description)), ("generation", .number(models.generation)),
                ("modelsLoaded", .number(snapshot.loadedCount)),
            ])
        }
    }

    /// The log fields of a key table change: each list of key IDs only when not empty, the first 20 of it named.
    static func fields(of change: KeyTableChange) -> [(String, EventLog.Value)] {
        func listed(_ items: [String]) -> EventLog.Value {
            let shown = items.prefix(20).joined(separator: ",")
            return .text(items.count > 20 ? "\(shown) and \(items.count - 20) more" : shown)
        }
        var fields: [(String, EventLog.Value)] = []
        if !change.added.isEmpty { fields.append(("added", listed(change.added))) }
        if !change.removed.isEmpty { fields.append(("removed", listed(change.removed))) }
        for status in KeyStatus.allCases {
            let keys = change.statusChanges.filter { $0.to == status }.map(\.keyID)
            if !keys.isEmpty { fields.append(("now\(status.rawValue.prefix(1).uppercased())\(status.rawValue.dropFirst())", listed(keys))) }
        }
        if !change.updated.isEmpty { fields.append(("settingsChanged", listed(change.updated))) }
        return fields
    }

    /// The published keys with their status and start: a reload that changes none of them changed nothing.
    private static func keySet(_ signer: PayloadSigner) -> Set<String> {
        Set(signer.publishedKeys.map { "\($0.kid) \($0.status) \($0.signsFromMilliseconds)" })
    }

    /// A refused reload changes nothing an operator can see but the log: the counter lets an alert find it.
    private func countReload(_ part: String, applied: Bool) {
        Self.reloadCounter(metrics, part: part, applied: applied).increment()
    }

    private static func reloadCounter(_ metrics: MetricsRegistry, part: String, applied: Bool) -> Counter {
        metrics.counter(
            "trust_insights_reloads_total", help: "SIGHUP reloads, by part (models, signingKeys) and result (applied, refused).",
            labels: ["part": part, "result": applied ? "applied" : "refused"])
    }

    /// Drains and stops: readiness false, no new connections, in-flight requests finish, storage is checkpointed.
    func stop() -> Bool {
        readiness.set(.draining)
        server.beginShutdown()
        // The loops close what is left at the end of the grace period, counted from when each began draining, a
        // little after this: the margin lets them get there, so that what they cut off, not this wait's own end,
        // decides. A connection lingering after an error's answer at that moment had its answer and is not counted.
        let stopped = server.waitUntilStopped(timeout: .milliseconds(Int64(configuration.shutdownGraceSeconds * 1000) + 2000))
        let cutOff = server.connectionsCutOff
        let drained = stopped && cutOff == 0
        if let failure = store.checkpoint() {
            // The commits are in the WAL, which the next start reads; a copy of the stopped folder must include it.
            log.error("checkpoint at shutdown failing", [
                ("database", .text(store.path)), ("error", .text(failure)),
                ("consequence", "the WAL keeps commits not yet in the database file: keep it with the database"),
            ])
        }
        dataFolderLock.release()
        if drained {
            log.info("stopped", [("drained", true)])
        } else {
            var fields: [(String, EventLog.Value)] = [
                ("drained", false), ("shutdownGraceMilliseconds", .number(Int((configuration.shutdownGraceSeconds * 1000).rounded()))),
                ("connectionsCutOff", .number(cutOff)),
            ]
            if !stopped { fields.append(("loopsStopped", false)) }
            log.warning("stopped with requests cut off", fields)
        }
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

/// The configuration files' load errors: a message and the JSON path it is about.
protocol LocatedConfigurationError: Error {
    var path: String { get }
    var message: String { get }
}

extension VelocityConfiguration.LoadError: LocatedConfigurationError {}
extension RateLimitPolicy.LoadError: LocatedConfigurationError {}

/// A callback whose target exists only later in start-up; called before then, it does nothing.
private final class LateCallback: Sendable {
    private let callback = Mutex<(@Sendable () -> Void)?>(nil)

    func set(_ body: @escaping @Sendable () -> Void) {
        callback.withLock { $0 = body }
    }

    func callAsFunction() {
        callback.withLock { $0 }?()
    }
}
