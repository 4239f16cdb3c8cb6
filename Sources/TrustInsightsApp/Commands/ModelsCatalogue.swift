import FoundationEssentials
import InsightCore
import InsightModel

#if canImport(Glibc)
import Glibc
#endif

/// The feature-schema check the `models` commands apply: the categories' catalogues from `--catalogue`
/// (default: the service's `configDir/features`), as `serve` does. Without that directory the check is skipped
/// with a warning, so models can be converted and verified outside a deployment; a `--catalogue` that does not
/// load is an error.
enum ModelsCatalogue {
    static let serviceCatalogue =
        "the service's configDir/features: --config, config/default.json or TRUST_INSIGHTS_CONFIG, then TRUST_INSIGHTS_CONFIG_DIR"

    static func option(help: String = "Feature catalogues to check models against.", default: String = serviceCatalogue) -> OptionSpec {
        .value("catalogue", "dir", help: help, default: `default`)
    }

    static func manifestOption(help: String = "The model manifest.") -> OptionSpec {
        .value("manifest", "file", help: help,
               default: "the service's modelsDir/manifest.json: --config, config/default.json or TRUST_INSIGHTS_CONFIG, then TRUST_INSIGHTS_MODELS_DIR")
    }

    /// `--config`, as `serve` takes it: the file that names the service's folders.
    static let configurationOption = ConfigurationLoader.options.first { $0.name == "config" }!

    /// The folders `serve` would read, so the `models` commands check what the service will load wherever they are
    /// run from: the configuration file (`--config`, as `serve` takes it), then the `TRUST_INSIGHTS_*` variables. A configuration that does not load
    /// is refused as `serve` refuses it (exit 2): the built-in folders in its place would check another manifest
    /// than the service's and report it valid.
    /// Only the folder a command reads is checked: with `--manifest` given, the models folder is none of its
    /// business, and refusing a command run elsewhere for it blamed the wrong thing (models probe, 5 December).
    /// The configuration folder at its built-in default (`./config`) may be missing: that is a command run outside
    /// a deployment, which `schemaCheck` warns of; one the configuration names must be there.
    static func serviceFolder(
        _ key: ServiceFolder, _ arguments: ParsedArguments, _ environment: CommandEnvironment
    ) throws(CommandLineError) -> String {
        let file = configurationFile(arguments)
        let configuration = try loadedConfiguration(arguments, environment)
        let folder = key == .models ? configuration.modelsDir : configuration.configDir
        let unset = key == .config && folder == ServiceConfiguration().configDir
        // As `serve` names a mistyped folder: a setting to correct (exit 2), not a manifest it cannot read (exit 1).
        if !FileSystem.isDirectory(atPath: folder) && !(unset && FileSystem.fileSize(atPath: folder) == nil) {
            throw .configuration(
                key: ConfigurationLoader.source(of: key.rawValue, arguments: file, variables: environment.variables),
                message: "\(folder) is not a folder")
        }
        return folder
    }

    /// Only the file: the command's own options (`--manifest`...) are no settings of the service.
    private static func configurationFile(_ arguments: ParsedArguments) -> ParsedArguments {
        ParsedArguments(
            commandPath: [], values: arguments.value("config").map { ["config": [$0]] } ?? [:], flags: [], positionals: [])
    }

    /// The service's configuration, refused (exit 2) as `serve` refuses it. Loaded even when `--manifest` and
    /// `--catalogue` name every file a command reads: a mistyped `--config` passed silently there (docs probe,
    /// 6 December), which the README says these commands refuse.
    private static func loadedConfiguration(
        _ arguments: ParsedArguments, _ environment: CommandEnvironment
    ) throws(CommandLineError) -> ServiceConfiguration {
        try ConfigurationLoader.load(arguments: configurationFile(arguments), variables: environment.variables) { path in
            try FileSystem.readFile(atPath: path)
        }
    }

    enum ServiceFolder: String {
        case models = "modelsDir"
        case config = "configDir"
    }

    /// `--manifest`, or the manifest of the service's models folder.
    static func manifestPath(_ arguments: ParsedArguments, _ environment: CommandEnvironment) throws(CommandLineError) -> String {
        if let explicit = arguments.value("manifest") {
            _ = try loadedConfiguration(arguments, environment)
            return explicit
        }
        return try serviceFolder(.models, arguments, environment) + "/manifest.json"
    }

    static func schemaCheck(
        _ arguments: ParsedArguments, _ environment: CommandEnvironment
    ) throws(CommandLineError) -> any ModelSchemaCheck {
        let explicit = arguments.value("catalogue")
        let directory: String
        if let explicit {
            _ = try loadedConfiguration(arguments, environment)
            // Named as the folder it is: the loader's first complaint was about `payment.json` inside it.
            var status = stat()
            if stat(explicit, &status) != 0 {
                // A file named with a trailing slash is ENOTDIR; a link that leads nowhere, ENOENT.
                let code = errno
                let reason = code == ENOENT ? "no such folder" : code == ENOTDIR ? "not a folder" : FileErrorText.reason(code: code)
                throw .failure("--catalogue \(explicit): \(reason)")
            }
            guard status.st_mode & S_IFMT == S_IFDIR else { throw .failure("--catalogue \(explicit): not a folder") }
            directory = explicit
        } else {
            directory = try serviceFolder(.config, arguments, environment) + "/features"
        }
        // Only when nothing at all is there: a link that leads nowhere or a file in its place is the loader's to
        // refuse, as `serve` refuses it (regression probe, 7 December: verify passed where serve would not start).
        if explicit == nil && !FileSystem.entryExists(atPath: directory) {
            // The insight types and categories are fixed lists, checked all the same.
            environment.printError("warning: no feature catalogue at \(directory): models are not checked against it")
            return KnownPairsSchemaCheck()
        }
        do {
            return CatalogueSchemaCheck(catalogue: try FeatureCatalogue.load(from: directory))
        } catch {
            throw .failure("feature catalogue: \(error)")
        }
    }
}
