/// `trust-insights models`: import, list, verify, benchmark and batch-score gradient-boosted models.
enum ModelsCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "models",
            abstract: "Import, list, verify, benchmark and score models.",
            subcommands: [
                ModelsImportCommand.spec,
                ModelsListCommand.spec,
                ModelsVerifyCommand.spec,
                ModelsBenchCommand.spec,
                ModelsScoreCommand.spec,
            ]
        )
    }
}
