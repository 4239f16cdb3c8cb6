import FoundationEssentials
import InsightModel

/// Manifest changes made by the `models` commands, with errors turned into command failures.
enum ModelsManifestEditing {
    static func registerCandidate(
        modelPath: String, modelData: Data, document: ModelDocument, manifestPath: String, schemaCheck: any ModelSchemaCheck
    ) throws(CommandLineError) {
        do {
            try ModelManifest.registerCandidate(
                modelPath: modelPath, modelData: modelData, document: document, manifestPath: manifestPath,
                schemaCheck: schemaCheck)
        } catch {
            throw .failure(error.description)
        }
    }
}
