import Testing

@testable import TrustInsightsApp

/// Under libfaketime's preload the Swift runtime hands the program no arguments, and every command said `Missing
/// subcommand` (signed-payload probe, 6 December): the kernel's copy is read then.
@Suite struct ProcessArgumentsTests {
    @Test func theRuntimesArgumentsAreUsedWhenThereAreAny() {
        #expect(ProcessArguments.afterName(runtime: ["trust-insights", "keys", "list"]) == ["keys", "list"])
        #expect(ProcessArguments.afterName(runtime: ["trust-insights"]).isEmpty)
    }

    @Test func withNoneFromTheRuntimeTheKernelsCopyIsRead() {
        // This test process's own command line, as the kernel keeps it, matches what its runtime was handed.
        #expect(ProcessArguments.afterName(runtime: []) == Array(CommandLine.arguments.dropFirst()))
        #expect(!CommandLine.arguments.isEmpty)
    }
}
