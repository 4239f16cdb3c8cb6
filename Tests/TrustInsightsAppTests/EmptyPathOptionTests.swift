import Testing

@testable import TrustInsightsApp

/// An option that names a file or folder given an empty value is a usage error (64) naming the option. Before, it
/// was exit 1 with a system error about '' ("cannot write : No such file or directory"), found by a CLI probe.
@Suite struct EmptyPathOptionTests {
    @Test(arguments: [
        ["export", "metrics", "--tenant", "acme", "--out", ""],
        ["export", "metrics", "--tenant", "acme", "--out="],
        ["models", "list", "--manifest", ""],
        ["models", "verify", "--catalogue", ""],
        ["models", "score", "--model", "", "--input", "x.csv"],
        ["simulate", "--category", "payment", "--rows", "10", "--out", ""],
        ["serve", "--config", ""],
    ])
    func anEmptyPathIsAUsageErrorNamingTheOption(arguments: [String]) {
        let run = CommandRun(arguments)
        #expect(run.status == 64, "\(arguments): \(run.errors)")
        #expect(run.errors.contains("needs a path, and was given an empty one"), "\(run.errors)")
        #expect(run.output.isEmpty)
    }
}
