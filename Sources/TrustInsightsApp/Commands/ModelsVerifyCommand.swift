import InsightModel

/// `trust-insights models verify`: loads the manifest and every model exactly as the service does at start-up.
enum ModelsVerifyCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "verify",
            abstract: "Check the manifest and every model it lists.",
            options: [
                ModelsCatalogue.manifestOption(),
                ModelsCatalogue.option(),
                ModelsCatalogue.configurationOption,
            ]
        ) { arguments, environment in
            let check = try ModelsCatalogue.schemaCheck(arguments, environment)
            return try run(manifestPath: try ModelsCatalogue.manifestPath(arguments, environment), environment, schemaCheck: check)
        }
    }

    static func run(
        manifestPath: String, _ environment: CommandEnvironment, schemaCheck: any ModelSchemaCheck
    ) throws(CommandLineError) -> Int32 {
        // Every model is checked, as start-up checks them, so that one run names every file to mend rather than
        // the first; the manifest itself must be valid for any of it to mean something.
        let registry: ModelRegistry
        do {
            registry = try ModelRegistry(manifestPath: manifestPath, schemaCheck: schemaCheck, skippingInvalidModels: true)
        } catch {
            throw .failure(error.description)
        }
        let models = registry.snapshot.allModels
        for model in models {
            let entry = model.entry
            environment.print(ModelsListCommand.shown(
                "ok  \(entry.insightType)/\(entry.category) \(entry.version) (\(entry.status.rawValue)): \(model.scorer.layoutDescription)"))
        }
        let refused = registry.snapshot.refused
        guard refused.isEmpty else {
            for error in refused { environment.printError("refused  \(error.description)") }
            let atStart = models.isEmpty
                ? "the service would not start with it (no model left)" : "the service would leave them out at start"
            throw .failure(
                "\(manifestPath): \(refused.count) of \(models.count + refused.count) models refused (listed above); \(atStart) and refuse the manifest on reload")
        }
        environment.print("\(manifestPath): \(models.count) models valid")
        return 0
    }
}
