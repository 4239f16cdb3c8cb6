import Synchronization

@testable import TrustInsightsApp

/// What one in-process run of the command line returned and printed.
struct CommandRun {
    let status: Int32
    let output: String
    let errors: String

    /// Runs `trust-insights <arguments>` in process, non-interactive, with only the environment `variables`.
    /// `outputFault` stands for a standard output that cannot be written (a full disk, a closed pipe).
    init(_ arguments: [String], variables: [String: String] = [:], outputFault: String? = nil) {
        let output = Mutex("")
        let errors = Mutex("")
        let environment = CommandEnvironment(
            standardOutput: { text in output.withLock { $0 += text } },
            standardError: { text in errors.withLock { $0 += text } }, variables: variables, isInteractive: false,
            standardOutputFault: { outputFault })
        status = CommandLineTool(root: RootCommand.spec).run(arguments, environment: environment)
        self.output = output.withLock { $0 }
        self.errors = errors.withLock { $0 }
    }
}
