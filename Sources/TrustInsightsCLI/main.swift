import TrustInsightsApp

#if canImport(Glibc)
import Glibc
#endif

// First, before any file is opened, so none can take the number of a closed standard stream.
let closedStreams = ClosedStandardStreams.reserve()
let arguments = Array(CommandLine.arguments.dropFirst())
let variables = ProcessEnvironment.variables()
let status = CommandLineTool(root: RootCommand.spec).run(
    arguments, environment: .process(variables: variables, closedStreams: closedStreams))
exit(status)
