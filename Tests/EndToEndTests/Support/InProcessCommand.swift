import Foundation
import Synchronization

@testable import TrustInsightsApp

/// The command line run in this process, as the data-folder tests use it beside a live service.
enum InProcessCommand {
    /// A path under the temporary folder that does not exist yet.
    static func temporaryFolder(_ name: String) -> String {
        NSTemporaryDirectory() + "trust-insights-\(name)-" + UUID().uuidString
    }

    /// Runs `trust-insights <arguments>` in process; its exit status and everything it printed, both streams.
    static func run(_ arguments: [String], variables: [String: String] = [:]) -> (status: Int32, text: String) {
        let printed = Mutex("")
        let environment = CommandEnvironment(
            standardOutput: { text in printed.withLock { $0 += text } },
            standardError: { text in printed.withLock { $0 += text } }, variables: variables, isInteractive: false)
        let status = CommandLineTool(root: RootCommand.spec).run(arguments, environment: environment)
        return (status, printed.withLock { $0 })
    }
}
