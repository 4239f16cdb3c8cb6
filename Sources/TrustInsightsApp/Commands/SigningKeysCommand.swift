import FoundationEssentials
import Glibc
import InsightCore
import InsightModel
import InsightCrypto

/// `trust-insights signing-keys list|rotate`: the ES256 keys that sign `signedPayload`, in `<data-dir>/signing-keys`.
/// A key staged with `rotate --at` is published before it signs, so that verifiers that cache the key set hold it
/// before its first payload (docs/SIGNED-PAYLOAD.md, "Rotation").
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
            abstract: "List signing keys with the time each signs from: the newest whose time has come is active, older ones are retired (still published, so that what they signed verifies), a later one is staged.",
            options: KeysCommand.dataOptions
        ) { arguments, environment in
            // Listing creates nothing: the service makes the first key on its first start.
            let dataDir = try dataDir(arguments, environment)
            // Something other than a database file in its place is named, as every other command names it, rather
            // than called missing (regression probe, 7 December).
            let folder = DataFolderState(dataDir: dataDir)
            try folder.checkReachable()
            let keys = try SigningKeyFiles(directory: dataDir + "/signing-keys").existing()
            // A folder without a database or keys is a mistyped --data-dir (as `keys list` and `rotate` say), not a
            // folder whose keys are still to come.
            guard !keys.isEmpty || folder.holdsDatabase else {
                throw CommandLineError.failure(
                    "no database and no signing keys at \(dataDir): check --data-dir (or dataDir in the configuration)")
            }
            guard !keys.isEmpty else {
                // Keys gone from a folder that answered evaluations were lost, not still to come: say what
                // `serve` would, which refuses to start there.
                try DataFolderState(dataDir: dataDir).checkSigningKeys(store: try KeysCommand.openStoreForReading(arguments, environment))
                environment.print("No signing keys yet: the service creates one on its first start ('signing-keys rotate' creates one now).")
                return 0
            }
            let times = keys.map { milliseconds($0.createdAt) }
            let activeIndex = SigningKeyFiles.activeIndex(times, now: milliseconds(Date()))
            for (index, key) in keys.enumerated() {
                // The time is when each signs from.
                let status = SigningKeyStatus(keyAt: index, activeIndex: activeIndex)
                environment.print("\(key.kid)  \(Timestamp.iso8601(milliseconds: times[index]))  \(status.rawValue)")
            }
            return 0
        }
    }

    static var rotate: CommandSpec {
        CommandSpec(
            name: "rotate",
            abstract: "Make a new signing key active now (or the staged one), or with --at stage one to sign from a later time; older keys stay published. Send SIGHUP to running servers.",
            options: [
                .value("at", "time", help: "RFC 3339 time in UTC (ending in Z), after now, from which a new key signs: published from the servers' next SIGHUP, so that verifiers can fetch it before its first payload."),
            ] + KeysCommand.dataOptions
        ) { arguments, environment in
            let signsFrom = try arguments.value("at").map { text throws(CommandLineError) in try time(text, option: "at") }
            let dataDir = try dataDir(arguments, environment)
            let files = SigningKeyFiles(directory: dataDir + "/signing-keys")
            let folder = DataFolderState(dataDir: dataDir)
            // A key in a folder without a database is what start-up takes for a lost database, and refuses; with a
            // mistyped --data-dir it would be a key no server uses. A new folder gets its first key on first start.
            // A folder or a pipe in the database's place is named, not taken for a database (regression probe,
            // 7 December: a folder there had a key rotated in).
            try folder.checkReachable()
            guard folder.holdsDatabase else {
                throw CommandLineError.failure(
                    "no database at \(folder.databasePath): check --data-dir (or dataDir in the configuration); "
                        + "a new data folder gets its first signing key when the service first starts there")
            }
            let rotation: SigningKeyFiles.Rotation
            do {
                rotation = try files.rotate(at: signsFrom)
            } catch CryptoError.stagingTimeNotAhead {
                // The value given is what is wrong, so a usage error (64), as one that is no time at all is.
                throw CommandLineError.usage(
                    "a staged key must start signing after now, and \(arguments.value("at") ?? "") is not: leave out --at to rotate now")
            } catch CryptoError.noKeySigningBeforeStagedTime {
                throw CommandLineError.failure(
                    "no signing key at \(dataDir)/signing-keys signs now, and a key staged alone would sign at once: run 'signing-keys rotate' without --at first (or, where the database holds no evaluation yet, start the service, which makes the first key; with evaluations it refuses to start without their keys)")
            } catch CryptoError.clockBehindEveryKey(let kid, let at) {
                throw CommandLineError.failure(
                    "this clock reads \(Timestamp.iso8601(milliseconds: milliseconds(Date()))), before the time of every signing key at \(dataDir)/signing-keys (the oldest, \(kid), signs from \(Timestamp.iso8601(milliseconds: milliseconds(at)))): the clock was set back, or the folder comes from a host whose clock was ahead. A new key must sort after those and could not sign before their time: set the clock right, then rotate")
            } catch CryptoError.clockBehindKeyFile(let path, let at) {
                throw CommandLineError.failure(
                    "this clock reads \(Timestamp.iso8601(milliseconds: milliseconds(Date()))), before \(Timestamp.iso8601(milliseconds: milliseconds(at))), when \(path) was last written: the clock was set back since. \(signsFrom == nil ? "A rotation judged by it would take a key made by an earlier rotation for one staged ahead, and make no new key" : "Staging judged by it would take a key made by an earlier rotation for one already staged, and stage none"): set the clock right, then rotate")
            } catch CryptoError.keyAlreadyStaged(let kid, let at) {
                throw CommandLineError.failure(
                    "signing key \(kid) is already staged to sign from \(Timestamp.iso8601(milliseconds: milliseconds(at))): rotate without --at to make it active now, or wait until it is")
            }
            switch rotation {
            case .created(let kid):
                environment.print("New active signing key \(kid). Running servers switch to it on SIGHUP; older keys stay published.")
            case .stagedKeyActivated(let kid):
                environment.print("The staged signing key \(kid) is active now. Running servers switch to it on SIGHUP; older keys stay published.")
            case .staged(let kid, let at):
                environment.print("New signing key \(kid), staged: running servers publish it on SIGHUP and sign with it from \(Timestamp.iso8601(milliseconds: milliseconds(at))) on, by themselves.")
            }
            return 0
        }
    }

    private static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    /// An RFC 3339 time in UTC, to the millisecond.
    static func time(_ given: String, option: String) throws(CommandLineError) -> Date {
        let text = RFC3339UTC.capitalized(given)
        let bytes = Array(text.utf8)
        guard RFC3339UTC.isValid(text) else {
            throw .usage("The value '\(given)' is invalid for '--\(option)': expected an RFC 3339 time in UTC (ending in Z) that exists, e.g. 2026-12-31T00:00:00Z")
        }
        func number(_ range: Range<Int>) -> Int32 {
            bytes[range].reduce(0) { $0 * 10 + Int32($1 - UInt8(ascii: "0")) }
        }
        var parts = tm()
        parts.tm_year = number(0..<4) - 1900
        parts.tm_mon = number(5..<7) - 1
        parts.tm_mday = number(8..<10)
        parts.tm_hour = number(11..<13)
        parts.tm_min = number(14..<16)
        parts.tm_sec = number(17..<19)
        let seconds = timegm(&parts)
        // The fraction's first three digits; any further ones are below the key files' millisecond.
        let fraction = bytes.count > 21 ? Array(bytes[20..<(bytes.count - 1)].prefix(3)) : []
        let milliseconds = fraction.enumerated().reduce(0) { $0 + Int($1.element - UInt8(ascii: "0")) * [100, 10, 1][$1.offset] }
        return Date(timeIntervalSince1970: Double(Int64(seconds) * 1000 + Int64(milliseconds)) / 1000)
    }
}
