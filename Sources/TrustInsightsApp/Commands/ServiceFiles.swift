import FoundationEssentials
import InsightModel

#if canImport(Glibc)
import Glibc
#endif

/// The files `serve` reads, seen from where a command runs: its configuration file, the configuration folder and its
/// `features/`, and the models folder's manifest with every model it lists. `simulate`, `train`, `models score` and
/// `models import` write files of their own and must not write over these: `simulate --out config/velocity.json`
/// replaced the velocity settings with CSV rows, and the service then refused to start (pipeline probe, 6 December).
///
/// The folders are the ones `serve` would take here: the configuration file (`--config` where the command has it,
/// else `TRUST_INSIGHTS_CONFIG`, else `config/default.json`), then the `TRUST_INSIGHTS_*` variables. A configuration
/// that does not load leaves the built-in folders: these commands do not need the service's settings, so a broken
/// one is no reason to refuse them, and the defaults are still files to keep.
enum ServiceFiles {
    /// Refuses (exit 64) an `output` that names one of the service's files, through any path or link.
    /// `configFolders` are further configuration folders the command was pointed at (`simulate --config-dir`).
    static func refuseOverwriting(
        _ output: String, option: String, with product: String, arguments: ParsedArguments,
        environment: CommandEnvironment, configFolders: [String] = []
    ) throws(CommandLineError) {
        let file = ParsedArguments(
            commandPath: [], values: arguments.value("config").map { ["config": [$0]] } ?? [:], flags: [],
            positionals: [])
        let configuration =
            (try? ConfigurationLoader.load(arguments: file, variables: environment.variables) { path in
                try FileSystem.readFile(atPath: path)
            }) ?? ServiceConfiguration()
        let folders = ([configuration.configDir] + configFolders).flatMap { [$0, $0 + "/features"] }
        let files = [ConfigurationLoader.filePath(arguments: file, variables: environment.variables)]
            + OutputFile.files(in: folders) + modelFiles(in: configuration.modelsDir)
        try OutputFile.refuseOverwriting(inputs: [], serviceFiles: files, option: option, path: output, with: product)
    }

    /// The manifest and the files it lists (a path may lead out of the folder with `..`). An unreadable manifest
    /// lists nothing, but is still the service's; only a regular file is read (a named pipe would wait for a writer).
    private static func modelFiles(in folder: String) -> [String] {
        let manifest = folder + "/manifest.json"
        var status = stat()
        guard stat(manifest, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return [] }
        guard let bytes = try? FileSystem.readFile(atPath: manifest),
              let parsed = try? ModelManifest(jsonData: Data(bytes))
        else { return [manifest] }
        return [manifest] + parsed.models.map { folder + "/" + $0.path }
    }
}
