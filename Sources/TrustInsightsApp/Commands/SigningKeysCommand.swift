import InsightCore
import InsightCrypto

/// `trust-insights signing-keys list|rotate`: the ES256 keys that sign `signedPayload`, in `<data-dir>/signing-keys`.
enum SigningKeysCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "signing-keys",
            abstract: "List or rotate the keys that sign evaluation payloads.",
            subcommands: [list, rotate]
        )
    }

    private static func dataDir(_ arguments: ParsedArguments, _ environment: CommandEnvironment) throws -> String {
        try ConfigurationLoader.load(arguments: arguments, variables: environment.variables) { path in
            try FileSystem.readFile(atPath: path)
        }.dataDir
    }

    static var list: CommandSpec {
        CommandSpec(
            name: "list",
            abstract: "List signing keys: the newest is active, older ones are retired (still published, so that what they signed verifies).",
            options: KeysCommand.dataOptions
        ) { arguments, environment in
            // Listing creates nothing: the service makes the first key on its first start.
            let dataDir = try dataDir(arguments, environment)
            let keys = try SigningKeyFiles(directory: dataDir + "/signing-keys").existing()
            // A folder without a database or keys is a mistyped --data-dir (as `keys list` and `rotate` say), not a
            // folder whose keys are still to come.
            let folder = DataFolderState(dataDir: dataDir)
            guard !keys.isEmpty || folder.holdsDatabase else {
                throw CommandLineError.failure(
                    "no database and no signing keys at \(dataDir): check --data-dir (or dataDir in the configuration)")
            }
            guard let active = keys.last else {
                // Keys gone from a folder that answered evaluations were lost, not still to come: say what
                // `serve` would, which refuses to start there.
                try DataFolderState(dataDir: dataDir).checkSigningKeys(store: try KeysCommand.openStore(arguments, environment))
                environment.print("No signing keys yet: the service creates one on its first start ('signing-keys rotate' creates one now).")
                return 0
            }
            for key in keys {
                let created = Timestamp.iso8601(milliseconds: Int64(key.createdAt.timeIntervalSince1970 * 1000))
                // The words GET /v1/signing-keys uses for the same keys.
                environment.print("\(key.kid)  \(created)  \(key.kid == active.kid ? "active" : "retired")")
            }
            return 0
        }
    }

    static var rotate: CommandSpec {
        CommandSpec(
            name: "rotate",
            abstract: "Create a new active signing key; older keys stay published. Send SIGHUP to running servers.",
            options: KeysCommand.dataOptions
        ) { arguments, environment in
            let dataDir = try dataDir(arguments, environment)
            let files = SigningKeyFiles(directory: dataDir + "/signing-keys")
            let folder = DataFolderState(dataDir: dataDir)
            // A key in a folder without a database is what start-up takes for a lost database, and refuses; with a
            // mistyped --data-dir it would be a key no server uses. A new folder gets its first key on first start.
            guard folder.holdsDatabase else {
                throw CommandLineError.failure(
                    "no database at \(folder.databasePath): check --data-dir (or dataDir in the configuration); "
                        + "a new data folder gets its first signing key when the service first starts there")
            }
            let kid = try files.rotate()
            environment.print("New active signing key \(kid). Running servers switch to it on SIGHUP; older keys stay published.")
            return 0
        }
    }
}
