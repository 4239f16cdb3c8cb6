enum VersionCommand {
    static var spec: CommandSpec {
        CommandSpec(name: "version", abstract: "Print the version of trust-insights.") { _, environment in
            environment.print("trust-insights \(RootCommand.version)")
            return 0
        }
    }
}
