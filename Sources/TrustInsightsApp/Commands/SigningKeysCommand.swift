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

    private static func files(_ arguments: ParsedArguments, _ environment: CommandEnvironment) throws -> SigningKeyFiles {
        let configuration = try ConfigurationLoader.load(arguments: arguments, variables: environment.variables) { path in
            try FileSystem.readFile(atPath: path)
        }
        return SigningKeyFiles(directory: configuration.dataDir + "/signing-keys")
    }

    static var list: CommandSpec {
        CommandSpec(name: "list", abstract: "List signing keys; the newest is active.", options: KeysCommand.dataOptions) { arguments, environment in
            let loaded = try files(arguments, environment).loadOrCreate()
            for key in loaded.all {
                let created = Timestamp.iso8601(milliseconds: Int64(key.createdAt.timeIntervalSince1970 * 1000))
                environment.print("\(key.kid)  \(created)  \(key.kid == loaded.active.kid ? "active" : "published")")
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
            let kid = try files(arguments, environment).rotate()
            environment.print("New active signing key \(kid). Running servers switch to it on SIGHUP; older keys stay published.")
            return 0
        }
    }
}
