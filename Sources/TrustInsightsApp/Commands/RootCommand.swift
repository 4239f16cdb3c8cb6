/// The `trust-insights` command tree. Each subcommand lives in its own file and is listed here once.
public enum RootCommand {
    public static let version = "0.1.0"

    public static var spec: CommandSpec {
        CommandSpec(
            name: "trust-insights",
            abstract: "A self-hostable service that scores operations for signs of a coached (coerced) person.",
            subcommands: [
                ServeCommand.spec,
                KeysCommand.spec,
                ModelsCommand.spec,
                SigningKeysCommand.spec,
                SimulateCommand.spec,
                TrainCommand.spec,
                ExportCommand.spec,
                ReportCommand.spec,
                BackupCommand.spec,
                VersionCommand.spec,
            ]
        )
    }
}
