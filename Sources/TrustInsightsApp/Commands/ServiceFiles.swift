import FoundationEssentials
import InsightModel
import InsightStore

#if canImport(Glibc)
import Glibc
#endif

/// The files `serve` reads, seen from where a command runs: its configuration file, the configuration folder and its
/// `features/`, the models folder's manifest with every model it lists, and the data folder (the database with its
/// `-wal`, `-shm` and `-journal`, existing or not, every other file there, and the signing keys' folder, which a
/// file of that name made before the service's first start there would keep it from starting).
/// `simulate`, `train`, `models score` and `models import` write files of their own and must not write over these:
/// `simulate --out config/velocity.json` replaced the velocity settings with CSV rows, and the service then refused
/// to start (pipeline probe, 6 December); `train --out data/trust-insights.sqlite` replaced every tenant, key,
/// evaluation and label with a model, where `export` and `report` already refused the data folder (training probe).
///
/// The folders are those `serve` could take here, all of them: the built-in `./config`, `./models` and `./data`, the
/// configuration file's `configDir`, `modelsDir` and `dataDir` (`--config` where the command has it, else
/// `TRUST_INSIGHTS_CONFIG`, else `config/default.json`), and `TRUST_INSIGHTS_CONFIG_DIR`, `TRUST_INSIGHTS_MODELS_DIR`
/// and `TRUST_INSIGHTS_DATA_DIR`.
/// Read leniently, from the file's text: these commands do not need the service's settings, and a setting of no
/// concern here (the `TRUST_INSIGHTS_PORT=tcp://...` Kubernetes' service links set) left the configuration unloaded
/// and the folders it names unguarded (regression probe, 6 December).
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
        let configurationFile = ConfigurationLoader.filePath(arguments: file, variables: environment.variables)
        let named = folderSettings(in: configurationFile)
        let defaults = ServiceConfiguration()
        let configDirs = [defaults.configDir] + named.configDirs
            + [environment.variables[variable("configDir")]].compactMap { $0 } + configFolders
        let modelsDirs = [defaults.modelsDir] + named.modelsDirs
            + [environment.variables[variable("modelsDir")]].compactMap { $0 }
        let dataDirs = [defaults.dataDir] + named.dataDirs + [environment.variables[variable("dataDir")]].compactMap { $0 }
        let files = [configurationFile] + OutputFile.files(in: configDirs.flatMap { [$0, $0 + "/features"] })
            + modelsDirs.flatMap(modelFiles(in:))
        let databases = dataDirs.map { $0 + "/" + SQLiteStore.fileName }
        try OutputFile.refuseOverwriting(
            inputs: [],
            reserved: databases + databases.flatMap { database in ["-wal", "-shm", "-journal"].map { database + $0 } }
                + dataDirs.map { $0 + "/signing-keys" },
            reservedFolders: dataDirs.map { $0 + "/signing-keys" }, serviceFiles: files,
            dataFolderFiles: OutputFile.files(in: dataDirs), option: option, path: output, with: product)
    }

    /// Every `configDir`, `modelsDir` and `dataDir` string member the configuration file holds, found in its text: one the
    /// file names twice (which `serve` refuses) or a file cut short names a folder all the same, and the guard must
    /// not depend on the file being one `serve` would take (regression probe, 6 December). Every `"name": "value"`
    /// pair is read, both strings decoded as JSON decodes them: a name may be written with escapes
    /// (`"config\u0044ir"`), which a search for the name as typed did not see (final probe, 6 December).
    private static func folderSettings(in path: String) -> (configDirs: [String], modelsDirs: [String], dataDirs: [String]) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let bytes = try? FileSystem.readFile(atPath: path),
              let pair = try? Regex(#"("(?:[^"\\]|\\.)*")\s*:\s*("(?:[^"\\]|\\.)*")"#)
        else { return ([], [], []) }
        var configDirs: [String] = [], modelsDirs: [String] = [], dataDirs: [String] = []
        for match in String(decoding: bytes, as: UTF8.self).matches(of: pair) {
            guard let name = match.output[1].substring, let value = match.output[2].substring,
                  let strings = try? JSONDecoder().decode([String].self, from: Data(("[" + name + "," + value + "]").utf8)),
                  strings.count == 2
            else { continue }
            if strings[0] == "configDir" { configDirs.append(strings[1]) }
            if strings[0] == "modelsDir" { modelsDirs.append(strings[1]) }
            if strings[0] == "dataDir" { dataDirs.append(strings[1]) }
        }
        return (configDirs, modelsDirs, dataDirs)
    }

    private static func variable(_ name: String) -> String {
        ConfigurationKey.all.first { $0.name == name }!.environmentVariable
    }

    /// The manifest and the files it lists (a path may lead out of the folder with `..`), the manifest read as the
    /// service reads it (a regular file of at most 16 MiB: a named pipe would wait for a writer).
    private static func modelFiles(in folder: String) -> [String] {
        let manifest = folder + "/manifest.json"
        guard FileSystem.entryExists(atPath: manifest) else { return [] }
        // One being edited may not parse for a moment, or one may not be readable: every file beside it is then taken
        // for a model it lists.
        guard let bytes = try? ModelManifest.fileBytes(atPath: manifest), let parsed = try? ModelManifest(jsonData: bytes)
        else { return [manifest] + OutputFile.files(in: [folder]) }
        return [manifest] + parsed.models.map { folder + "/" + $0.path }
    }
}
