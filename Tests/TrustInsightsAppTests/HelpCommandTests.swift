import Testing

@testable import TrustInsightsApp

/// `help <command>` is the command's `--help`. Before, `help serve` printed the top-level help, and `help bogus`
/// did too, with exit status 0.
@Suite struct HelpCommandTests {
    @Test func helpNamesTheCommandWhoseHelpIsPrinted() {
        for (help, flag) in [(["help", "serve"], ["serve", "--help"]), (["help", "models", "import"], ["models", "import", "--help"]),
                             (["models", "help", "verify"], ["models", "verify", "--help"]), (["help"], ["--help"])] {
            let asked = CommandRun(help)
            #expect(asked.status == 0, "\(help)")
            #expect(asked.output == CommandRun(flag).output, "\(help)")
            #expect(!asked.output.isEmpty)
        }
    }

    @Test func helpForANameThatIsNoCommandIsAUsageError() {
        for arguments in [["help", "bogus"], ["help", "models", "bogus"]] {
            let run = CommandRun(arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.errors.contains("Unknown command 'bogus'"), "\(run.errors)")
            #expect(run.output.isEmpty)
        }
    }
}
