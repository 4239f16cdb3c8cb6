import TrustInsightsApp

#if canImport(Glibc)
import Glibc
#endif

// First, before any file is opened, so none can take the number of a closed standard stream.
let closedStreams = ClosedStandardStreams.reserve()
// A reader that went away (`| head`) is a failed write, reported as `cannot write standard output` with exit 1 as
// for any other, not a death by SIGPIPE that a script would read as status 141.
signal(SIGPIPE, SIG_IGN)
let arguments = ProcessArguments.afterName(runtime: CommandLine.arguments)
let variables = ProcessEnvironment.variables()
let status = CommandLineTool(root: RootCommand.spec).run(
    arguments, environment: .process(variables: variables, closedStreams: closedStreams))
exit(status)
