import Foundation
import Testing

@testable import TrustInsightsApp

/// An error quotes names from files and arguments; a control character in one (an escape sequence in a
/// configuration key, a NUL) reached the terminal as it stood (command-line probe, 6 December).
@Suite struct ErrorMessageEscapingTests {
    @Test func controlCharactersAreWrittenAsEscapes() {
        #expect(CommandEnvironment.escapingControlCharacters("port\u{1B}[31mRED") == "port\\u{1B}[31mRED")
        #expect(CommandEnvironment.escapingControlCharacters("a\u{0}b\u{7F}c\u{85}") == "a\\u{0}b\\u{7F}c\\u{85}")
        #expect(CommandEnvironment.escapingControlCharacters("two\nlines\tand é") == "two\nlines\tand é")
    }

    @Test func aConfigurationKeyHoldingAnEscapeSequenceIsQuotedInert() throws {
        let file = NSTemporaryDirectory() + "trust-insights-escape-" + UUID().uuidString + ".json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(#"{"port\u001b[31mRED": 0}"#.utf8).write(to: URL(fileURLWithPath: file))
        let run = CommandRun(["serve", "--config", file])
        #expect(run.status == 2)
        #expect(run.errors.contains("port\\u{1B}[31mRED: unknown key"), "\(run.errors)")
        #expect(!run.errors.contains("\u{1B}"))
    }
}
