import Testing

@testable import TrustInsightsApp

/// Numbers on the command line are written as the configuration writes them (JSON's grammar): before, `--rate +5`
/// and `--rate 5.` made a key while `--metrics-suppression-k +5` was refused (CLI probe, 5 December).
@Suite struct OptionNumberTests {
    private func parsed(_ name: String, _ value: String) -> ParsedArguments {
        ParsedArguments(commandPath: [], values: [name: [value]], flags: [], positionals: [])
    }

    @Test(arguments: ["+5", "5.", ".5", "0x10", "1_000", " 5", "nan", "inf", "05"])
    func aNumberTheConfigurationRefusesIsAUsageError(text: String) {
        #expect(throws: CommandLineError.self) { try parsed("rate", text).double("rate") }
        #expect(throws: CommandLineError.self) { try parsed("burst", text).int("burst") }
    }

    @Test func decimalNumbersAreRead() throws {
        #expect(try parsed("rate", "0.5").double("rate") == 0.5)
        #expect(try parsed("rate", "2.5e3").double("rate") == 2500)
        #expect(try parsed("rate", "-0").double("rate")?.sign == .plus, "-0 is 0")
        #expect(try parsed("burst", "12").int("burst") == 12)
        #expect(try parsed("burst", "-3").int("burst") == -3)
        #expect(throws: CommandLineError.self) { try parsed("burst", "1e3").int("burst") }
    }

    /// `.5` and `5.` stay refused, as the configuration refuses them, but the message says how to write them.
    @Test func aPointWithoutDigitsOnOneSideIsRefusedWithTheNumberToWrite() {
        #expect(throws: CommandLineError.usage(
            "The value '.5' is invalid for '--rate': expected a decimal number "
                + "(write '0.5': numbers are written as in JSON, with digits on both sides of the point)")
        ) { try parsed("rate", ".5").double("rate") }
        #expect(throws: CommandLineError.usage(
            "The value '-.25' is invalid for '--rate': expected a decimal number "
                + "(write '-0.25': numbers are written as in JSON, with digits on both sides of the point)")
        ) { try parsed("rate", "-.25").double("rate") }
        #expect(throws: CommandLineError.usage(
            "The value '5.' is invalid for '--rate': expected a decimal number "
                + "(write '5': numbers are written as in JSON, with digits on both sides of the point)")
        ) { try parsed("rate", "5.").double("rate") }
        #expect(throws: CommandLineError.usage("The value '.' is invalid for '--rate': expected a decimal number")) {
            try parsed("rate", ".").double("rate")
        }
        #expect(throws: CommandLineError.usage("The value '.x' is invalid for '--rate': expected a decimal number")) {
            try parsed("rate", ".x").double("rate")
        }
    }
}
