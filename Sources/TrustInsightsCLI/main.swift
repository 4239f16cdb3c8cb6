import TrustInsightsApp

#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let variables = ProcessEnvironment.variables()
let status = CommandLineTool(root: RootCommand.spec).run(arguments, environment: .process(variables: variables))
exit(status)
