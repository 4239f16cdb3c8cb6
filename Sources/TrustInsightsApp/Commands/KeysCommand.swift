import InsightCore
import InsightStore

/// `trust-insights keys create|list|revoke|reinstate`: manages API keys straight in the data folder. A running
/// server notices changes within a second (it watches the key table's generation).
enum KeysCommand {
    static var dataOptions: [OptionSpec] {
        ConfigurationLoader.options.filter { ["config", "data-dir"].contains($0.name) }
    }

    static var spec: CommandSpec {
        CommandSpec(
            name: "keys",
            abstract: "Create, list, revoke and reinstate API keys.",
            subcommands: [create, list, revoke, reinstate]
        )
    }

    /// Opens the data folder's database. Only `keys create` may create it (a tenant made before the first start
    /// keeps the demo tenant out, docs/SECURITY.md), and says so; the other commands refuse a folder without one,
    /// where a mistyped `--data-dir` would otherwise list nothing or revoke nothing without a word.
    static func openStore(_ arguments: ParsedArguments, _ environment: CommandEnvironment, creating: Bool = false) throws -> SQLiteStore {
        let configuration = try ConfigurationLoader.load(arguments: arguments, variables: environment.variables) { path in
            try FileSystem.readFile(atPath: path)
        }
        let folder = DataFolderState(dataDir: configuration.dataDir)
        try folder.checkReachable()
        let exists = folder.holdsDatabase
        if !exists && !creating {
            throw CommandLineError.failure(
                "no database at \(folder.databasePath): check --data-dir (or dataDir in the configuration); the service creates it on its first start")
        }
        // A folder that lost its database is not one to create a new database in.
        if !exists {
            try folder.checkParentBeforeCreating()
            try folder.checkDatabaseBeforeOpening()
        }
        try folder.checkServerFilesBeforeOpening()
        try folder.checkNoMigrationUnderAServer()
        do {
            let store = try SQLiteStore(directory: configuration.dataDir, migrating: { from, to in
                // An upgrade run by a command, before the service's next start: said, as `serve` logs it.
                if exists {
                    environment.printError("Migrating \(folder.databasePath) from schema version \(from) to \(to).")
                }
            })
            if !exists { environment.printError("Created a new database at \(folder.databasePath).") }
            return store
        } catch {
            throw CommandLineError.failure("cannot open the data folder \(configuration.dataDir): \(error)\(DamagedDatabase.advice(for: error, databasePath: folder.databasePath))")
        }
    }

    /// The database opened only to read, for `list`: it then works on a read-only backup or mount, and for an
    /// account that may read the files only. A database of another schema version is refused, as `export` refuses
    /// it: migrating would write, and a backup migrated is one its own release can no longer open.
    static func openStoreForReading(_ arguments: ParsedArguments, _ environment: CommandEnvironment) throws -> any DatabaseReading {
        let configuration = try ConfigurationLoader.load(arguments: arguments, variables: environment.variables) { path in
            try FileSystem.readFile(atPath: path)
        }
        let folder = DataFolderState(dataDir: configuration.dataDir)
        try folder.checkReachable()
        // A folder without a database is refused as the other commands refuse it (a mistyped --data-dir).
        guard folder.holdsDatabase else { return try openStore(arguments, environment) }
        try folder.checkServerFilesBeforeOpening()
        let store: SQLiteReadOnlyStore
        do {
            store = try SQLiteReadOnlyStore(directory: configuration.dataDir)
        } catch {
            throw CommandLineError.failure("cannot open the data folder \(configuration.dataDir): \(error)\(DamagedDatabase.advice(for: error, databasePath: folder.databasePath))")
        }
        try folder.checkSchemaForReading(store)
        return store
    }

    static var create: CommandSpec {
        CommandSpec(
            name: "create",
            abstract: "Create a key; its secret is printed once, on a line of its own.",
            options: [
                .value("tenant", "tenant", help: "Tenant the key belongs to (created if new).", required: true),
                .value("role", "role", help: "client, partner or analyst.", required: true),
                .value("env", "environment", help: "sandbox or production.", required: true),
                .value("rate", "per-second", help: "Sustained requests per second for this key (client keys)."),
                .value("burst", "requests", help: "Requests admitted at once when the key has been idle (the limit's q), refilled at the rate."),
            ] + dataOptions
        ) { arguments, environment in
            guard let tenant = TenantID(try arguments.required("tenant")) else {
                throw CommandLineError.usage("The value for '--tenant' must be 1 to 64 letters, digits, '-' or '_'")
            }
            let role = KeyRole(rawValue: try arguments.choice("role", from: KeyRole.allCases.map(\.rawValue))!)!
            let deployment = DeploymentEnvironment(rawValue: try arguments.choice("env", from: DeploymentEnvironment.allCases.map(\.rawValue))!)!
            // The ranges of config/rate-limits.json: a burst under 1e6 refused here while `--rate 1000000` alone
            // gave its key a burst of 2e6 (operator probe, 6 December).
            let rate = try arguments.double("rate", in: 0.0001...1_000_000)
            let burst = try arguments.int("burst", in: 1...10_000_000)
            // Stored and never applied would look like a limit that holds (docs/RATE-LIMITS.md).
            if rate != nil || burst != nil, role != .client {
                throw CommandLineError.usage("'--rate' and '--burst' apply to client keys only: labels, reports and reads are not rate limited")
            }
            if burst != nil, rate == nil {
                throw CommandLineError.usage("'--burst' needs '--rate': a key's own limit is a rate with its burst; without both the key takes its tenant's or the default limit")
            }
            let store = try openStore(arguments, environment, creating: true)
            let created = try KeyIssuer(store: store).issue(tenant: tenant, role: role, environment: deployment, rate: rate, burst: burst, now: Clock.nowMilliseconds())
            environment.print("Created \(role.rawValue) key \(created.keyID) for tenant \(tenant) (\(deployment.rawValue)).")
            environment.print("Secret, shown only now; send it as 'Authorization: Bearer <secret>':")
            environment.print(created.revealed)
            // A secret printed into nothing (a full disk, a closed pipe) leaves a live key that nobody can use
            // but anybody who later finds the output could: take it back rather than leave it active.
            if let fault = environment.standardOutputFault() {
                try store.setKeyStatus(keyID: created.keyID, to: .revoked, now: Clock.nowMilliseconds())
                throw CommandLineError.failure(
                    "cannot write standard output (\(fault)): the secret of key \(created.keyID) was not shown, so the key was revoked; create another")
            }
            return 0
        }
    }

    /// A key with its own rate but no burst of its own has twice the rate (RateLimitPolicy), not the default
    /// burst that "default" would suggest.
    static func burstColumn(rate: Double?, burst: Int?) -> String {
        if let burst { return "\(burst)" }
        guard let rate else { return "default" }
        // Said as computed: 2.5 requests a second give a burst of 6, not the 5 that "2 x rate" would suggest.
        return rate == rate.rounded(.up)
            ? "\(RateLimitPolicy.burst(forOwnRate: rate)) (2 x rate)"
            : "\(RateLimitPolicy.burst(forOwnRate: rate)) (2 x rate rounded up)"
    }

    static var list: CommandSpec {
        CommandSpec(name: "list", abstract: "List keys (never their secrets).", options: dataOptions) { arguments, environment in
            let store = try openStoreForReading(arguments, environment)
            let rows = [["KEY", "TENANT", "ROLE", "ENV", "STATUS", "RATE", "BURST", "CREATED"]] + (try store.allKeys()).map { key in
                [key.keyID, key.tenant.rawValue, key.role.rawValue, key.environment.rawValue, key.status.rawValue,
                 key.rate.map { "\($0)" } ?? "default", Self.burstColumn(rate: key.rate, burst: key.burst),
                 Timestamp.iso8601(milliseconds: key.createdAt)]
            }
            for line in Self.aligned(rows) { environment.print(line) }
            return 0
        }
    }

    static var revoke: CommandSpec { statusChange(name: "revoke", status: .revoked, abstract: "Revoke a key: a running server answers it 401 within a second.") }
    static var reinstate: CommandSpec {
        statusChange(name: "reinstate", status: .active, abstract: "Reinstate a suspended or revoked key.")
    }

    private static func statusChange(name: String, status: KeyStatus, abstract: String) -> CommandSpec {
        CommandSpec(name: name, abstract: abstract, options: dataOptions, positionals: [PositionalSpec("key-id", help: "The key's ID (see 'keys list').")]) { arguments, environment in
            let keyID = arguments.positionals[0]
            // A pasted secret is neither echoed nor acted on: the ID it holds is named, and the secret called exposed.
            // So is one pasted with its scheme, as copied from an Authorization header.
            if let secret = Authenticator.presentedSecret(authorization: keyID) ?? APIKeySecret(presented: keyID) {
                throw CommandLineError.usage(
                    "that is a key's secret, not its ID: its ID is \(secret.keyID) ('keys \(name) \(secret.keyID)'); a secret pasted where it may be logged should be treated as exposed")
            }
            // Not shaped like an ID is a usage error, and the text is not repeated: it might be part of a secret.
            guard APIKeySecret.isKeyIDShaped(keyID) else {
                throw CommandLineError.usage("that is not a key ID: key IDs are 'k' and 16 hexadecimal digits ('keys list' shows them)")
            }
            let store = try openStore(arguments, environment)
            do {
                try store.setKeyStatus(keyID: keyID, to: status, now: Clock.nowMilliseconds())
            } catch StoreError.notFound {
                throw CommandLineError.failure("no key with ID \(keyID) in this data folder ('keys list' shows them)")
            }
            environment.print("Key \(keyID) is now \(status.rawValue).")
            return 0
        }
    }

    /// Rows as lines whose columns line up: each column as wide as its longest value and two spaces (a tenant
    /// name may be 64 characters), as `column -t` would print them.
    static func aligned(_ rows: [[String]]) -> [String] {
        let widths = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1 + 2, withPad: " ", startingAt: 0) }.joined().trimmingTrailingSpaces()
        }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }

    func padding(toLength length: Int, withPad pad: String, startingAt: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
