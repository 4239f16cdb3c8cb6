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

    static func openStore(_ arguments: ParsedArguments, _ environment: CommandEnvironment) throws -> SQLiteStore {
        let configuration = try ConfigurationLoader.load(arguments: arguments, variables: environment.variables) { path in
            try FileSystem.readFile(atPath: path)
        }
        do {
            return try SQLiteStore(directory: configuration.dataDir)
        } catch {
            throw CommandLineError.failure("cannot open the data folder \(configuration.dataDir): \(error)")
        }
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
                .value("burst", "requests", help: "Requests allowed above the rate in a burst."),
            ] + dataOptions
        ) { arguments, environment in
            guard let tenant = TenantID(try arguments.required("tenant")) else {
                throw CommandLineError.usage("The value for '--tenant' must be 1 to 64 letters, digits, '-' or '_'")
            }
            let role = KeyRole(rawValue: try arguments.choice("role", from: KeyRole.allCases.map(\.rawValue))!)!
            let deployment = DeploymentEnvironment(rawValue: try arguments.choice("env", from: DeploymentEnvironment.allCases.map(\.rawValue))!)!
            let rate = try arguments.double("rate", in: 0.001...1_000_000)
            let burst = try arguments.int("burst", in: 1...1_000_000)
            let store = try openStore(arguments, environment)
            let created = try KeyIssuer(store: store).issue(tenant: tenant, role: role, environment: deployment, rate: rate, burst: burst, now: Clock.nowMilliseconds())
            environment.print("Created \(role.rawValue) key \(created.keyID) for tenant \(tenant) (\(deployment.rawValue)).")
            environment.print("Secret, shown only now; send it as 'Authorization: Bearer <secret>':")
            environment.print(created.revealed)
            return 0
        }
    }

    static var list: CommandSpec {
        CommandSpec(name: "list", abstract: "List keys (never their secrets).", options: dataOptions) { arguments, environment in
            let store = try openStore(arguments, environment)
            environment.print(pad(["KEY", "TENANT", "ROLE", "ENV", "STATUS", "RATE", "BURST", "CREATED"]))
            for key in try store.allKeys() {
                environment.print(pad([
                    key.keyID, key.tenant.rawValue, key.role.rawValue, key.environment.rawValue, key.status.rawValue,
                    key.rate.map { "\($0)" } ?? "default", key.burst.map { "\($0)" } ?? "default",
                    Timestamp.iso8601(milliseconds: key.createdAt),
                ]))
            }
            return 0
        }
    }

    static var revoke: CommandSpec { statusChange(name: "revoke", status: .revoked, abstract: "Revoke a key: it answers 401 from now on.") }
    static var reinstate: CommandSpec {
        statusChange(name: "reinstate", status: .active, abstract: "Reinstate a suspended or revoked key.")
    }

    private static func statusChange(name: String, status: KeyStatus, abstract: String) -> CommandSpec {
        CommandSpec(name: name, abstract: abstract, options: dataOptions, positionals: [PositionalSpec("key-id", help: "The key's ID (see 'keys list').")]) { arguments, environment in
            let store = try openStore(arguments, environment)
            let keyID = arguments.positionals[0]
            do {
                try store.setKeyStatus(keyID: keyID, to: status, now: Clock.nowMilliseconds())
            } catch StoreError.notFound {
                throw CommandLineError.failure("no key with ID \(keyID)")
            }
            environment.print("Key \(keyID) is now \(status.rawValue).")
            return 0
        }
    }

    private static func pad(_ columns: [String]) -> String {
        let widths = [18, 16, 8, 11, 10, 8, 8, 24]
        return zip(columns, widths).map { $0.padding(toLength: max($1, $0.count + 1), withPad: " ", startingAt: 0) }.joined()
            .trimmingTrailingSpaces()
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
