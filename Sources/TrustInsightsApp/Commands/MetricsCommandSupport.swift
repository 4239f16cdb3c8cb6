import FoundationEssentials
import InsightCore
import InsightService
import InsightStore

/// What `export metrics` and `report` share: the query options, the configuration keys that shape metrics, and
/// opening an existing data folder.
enum MetricsCommandSupport {
    static var configurationOptions: [OptionSpec] {
        ConfigurationLoader.options.filter { ["config", "data-dir", "metrics-suppression-k", "metrics-maturity-days"].contains($0.name) }
    }

    static let rangeOptions: [OptionSpec] = [
        .value("tenant", "tenant", help: "Tenant whose evaluations are measured.", required: true),
        .value("from", "YYYY-MM-DD", help: "First UTC evaluation day (default: 89 days before --to, not before 1970-01-01)."),
        .value("to", "YYYY-MM-DD", help: "Last UTC evaluation day (default: today)."),
        .value("environment", "environment", help: "production, sandbox or all.", default: "production"),
    ]

    /// Option names of the command line for the API's parameter names.
    private static let flags = ["from": "from", "to": "to", "groupBy": "group-by", "format": "format", "environment": "environment"]

    static func request(_ arguments: ParsedArguments, now: Int64) throws(CommandLineError) -> MetricsRequest {
        guard let tenant = TenantID(try arguments.required("tenant")) else {
            throw .usage("The value for '--tenant' must be 1 to 64 letters, digits, '-' or '_'")
        }
        var items: [(name: String, value: String)] = []
        for (parameter, flag) in flags.sorted(by: { $0.key < $1.key }) {
            if let value = arguments.value(flag) { items.append((parameter, value)) }
        }
        do {
            return try MetricsRequestDecoder.decode(items, tenant: tenant, keyEnvironment: nil, today: MetricsQuery.day(ofMilliseconds: now))
        } catch {
            guard case .invalidParameters(let problems) = error, !problems.isEmpty else { throw .usage("invalid metrics options") }
            throw .usage(problems.map { "The value for '--\(flags[$0.pointer] ?? $0.pointer)' is invalid: it \($0.detail)" }
                .joined(separator: "\n"))
        }
    }

    /// The configured metrics of an existing data folder; a missing database is an error, not a new empty one,
    /// and so is a tenant it does not know (a mistyped name would otherwise read as a tenant with no data).
    ///
    /// `output` (a path, or `-`) may not name a file these commands read: the database and the rest of the data
    /// folder, its signing keys, or the configuration file; nor any file of the service's (`ServiceFiles`), in any
    /// folder `serve` could take from where the command runs. Checked before anything is read.
    static func metrics(
        _ arguments: ParsedArguments, _ environment: CommandEnvironment, tenant: TenantID, output: String, product: String
    ) throws -> LabelMetrics {
        let configuration = try ConfigurationLoader.load(arguments: arguments, variables: environment.variables) { path in
            try FileSystem.readFile(atPath: path)
        }
        if output != "-" {
            let inputs = [ConfigurationLoader.filePath(arguments: arguments, variables: environment.variables)]
                + OutputFile.files(in: [configuration.dataDir, configuration.dataDir + "/signing-keys"])
            let database = configuration.dataDir + "/" + SQLiteStore.fileName
            // The service's other files too: an export written over the manifest or a model took the service down at
            // its next start (command-line probe, 6 December).
            let serviceFiles = OutputFile.files(in: [
                configuration.configDir, configuration.configDir + "/features", configuration.modelsDir,
            ])
            try OutputFile.refuseOverwriting(
                inputs: inputs, reserved: ["-wal", "-shm", "-journal"].map { database + $0 } + [configuration.dataDir + "/signing-keys"],
                reservedFolders: [configuration.dataDir + "/signing-keys"], serviceFiles: serviceFiles,
                option: "out", path: output, with: product)
            // And those of every other folder `serve` could take from here: an export of another data folder
            // (`--data-dir alt`) wrote over `./data`'s database (second regression probe, 6 December).
            try ServiceFiles.refuseOverwriting(output, option: "out", with: product, arguments: arguments, environment: environment)
            try ModelsFiles.refuseOverwritingListedModel(output, option: "out")
        }
        let folder = DataFolderState(dataDir: configuration.dataDir)
        try folder.checkReachable()
        guard folder.holdsDatabase else {
            throw CommandLineError.failure("no database at \(folder.databasePath): nothing to measure")
        }
        try folder.checkServerFilesBeforeOpening()
        // Read-only, so that a backup, a snapshot on a read-only mount, or an account that may only read the files
        // can be measured; the serving store would open for writing, bring the schema up to date and start a
        // checkpointer. These commands only read, and may be pointed at a folder an older server still runs on, or
        // at a backup: another schema version is refused.
        let store: SQLiteReadOnlyStore
        do {
            store = try SQLiteReadOnlyStore(directory: configuration.dataDir)
        } catch {
            throw CommandLineError.failure("cannot open the data folder \(configuration.dataDir): \(error)\(DamagedDatabase.advice(for: error, databasePath: folder.databasePath))")
        }
        try folder.checkSchemaForReading(store)
        let tenants: [TenantID]
        do {
            tenants = try store.tenants()
        } catch {
            throw CommandLineError.failure("cannot open the data folder \(configuration.dataDir): \(error)\(DamagedDatabase.advice(for: error, databasePath: folder.databasePath))")
        }
        guard tenants.contains(tenant) else {
            let known = tenants.isEmpty ? "none" : tenants.map(\.rawValue).joined(separator: ", ")
            // Not a usage error (exit 64): the option is well formed, the data folder just holds no such tenant, as
            // with `keys revoke` of an unknown key. The tenants listed are the operator's own, from the same files.
            throw CommandLineError.failure("--tenant \(tenant.rawValue): no such tenant in \(configuration.dataDir) (tenants: \(known))")
        }
        return LabelMetrics(source: store, policy: configuration.metricsPolicy)
    }

    static func write(_ bytes: [UInt8], to output: String, _ environment: CommandEnvironment) throws(CommandLineError) {
        if output == "-" {
            // A terminal's prompt should not follow on the document's last line; a file keeps the API's bytes.
            // Judged on the bytes: a CSV ends in CRLF, which a String holds as one Character that is not "\n".
            let text = String(decoding: bytes, as: UTF8.self)
            environment.standardOutput(bytes.last == UInt8(ascii: "\n") ? text : text + "\n")
        } else {
            try OutputFile.write(bytes, to: output)
        }
    }
}
