import FoundationEssentials
import InsightCore
import InsightModel

/// The feature-schema check the `models` commands apply: the categories' catalogues from `--catalogue`
/// (default `config/features`), as `serve` does. Without the default directory the check is skipped with a
/// warning, so models can be converted and verified outside a deployment; a `--catalogue` that does not load
/// is an error.
enum ModelsCatalogue {
    static let defaultDirectory = "config/features"

    static let option = OptionSpec.value(
        "catalogue", "dir", help: "Feature catalogues to check models against.", default: defaultDirectory)

    static func schemaCheck(
        _ arguments: ParsedArguments, _ environment: CommandEnvironment
    ) throws(CommandLineError) -> any ModelSchemaCheck {
        let explicit = arguments.value("catalogue")
        let directory = explicit ?? defaultDirectory
        if explicit == nil && !FileManager.default.fileExists(atPath: directory) {
            environment.printError("warning: no feature catalogue at \(directory): models are not checked against it")
            return PermissiveSchemaCheck()
        }
        do {
            return CatalogueSchemaCheck(catalogue: try FeatureCatalogue.load(from: directory))
        } catch {
            throw .failure("feature catalogue: \(error)")
        }
    }
}
