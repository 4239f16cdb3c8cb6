enum ModelsListCommand {
    static var spec: CommandSpec {
        CommandSpec(name: "list", abstract: "List the models in the manifest.") { _, _ in 1 }
    }
}
enum ModelsVerifyCommand {
    static var spec: CommandSpec {
        CommandSpec(name: "verify", abstract: "Check the manifest and every model it lists.") { _, _ in 1 }
    }
}
enum ModelsScoreCommand {
    static var spec: CommandSpec {
        CommandSpec(name: "score", abstract: "Score a CSV of rows with a model.") { _, _ in 1 }
    }
}
