import Foundation
import HTTPServer
import InsightCore
import InsightStore
import Synchronization
import Testing
@testable import TrustInsightsApp

@Suite("First start example")
struct FirstStartExampleTests {
    private static func example(host: String) -> String {
        let printed = Mutex<[String]>([])
        let environment = CommandEnvironment(
            standardOutput: { line in printed.withLock { $0.append(line) } }, standardError: { _ in },
            variables: [:], isInteractive: false)
        FirstStart.printExample(client: .generate(environment: .sandbox), host: host, port: 8080, environment: environment)
        return printed.withLock { $0.joined(separator: "\n") }
    }

    @Test(arguments: [
        ("127.0.0.1", "http://127.0.0.1:8080/v1/evaluations"),
        ("0.0.0.0", "http://127.0.0.1:8080/v1/evaluations"),
        ("::", "http://[::1]:8080/v1/evaluations"),
        ("[::]", "http://[::1]:8080/v1/evaluations"),
        ("::1", "http://[::1]:8080/v1/evaluations"),
        ("10.1.2.3", "http://10.1.2.3:8080/v1/evaluations"),
    ])
    func pointsTheCurlExampleAtAnAddressThisMachineCanReach(host: String, url: String) {
        #expect(Self.example(host: host).contains("curl -s \(url) "))
    }

    /// Demo secrets printed into a full disk or a closed pipe reached nobody: they are not stored (as `keys create`
    /// revokes a key whose secret it could not print; they were stored, active, before), and the operator is told in
    /// the JSON log on standard error, the one stream still read (as a log line: a plain-text one there broke the
    /// log's JSON lines). The next start is a first start again.
    @Test func warnsWhenTheDemoSecretsCouldNotBePrinted() throws {
        let folder = NSTemporaryDirectory() + "first-start-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try SQLiteStore(directory: folder)
        let errors = Mutex("")
        let environment = CommandEnvironment(
            standardOutput: { _ in }, standardError: { text in errors.withLock { $0 += text } },
            variables: [:], isInteractive: false, standardOutputFault: { "No space left on device" })
        let sink = CollectingLogSink()
        #expect(try FirstStart.provisionIfEmpty(store: store, environment: environment, log: EventLog(sink: sink)) == nil)
        #expect(try store.allKeys().isEmpty)
        #expect(try store.tenants().isEmpty)
        #expect(errors.withLock { $0 }.isEmpty)
        let line = try #require(sink.lines.first { $0.contains("demo key secrets not shown") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning")
        #expect((object["fault"] as? String)?.contains("could not be written to standard output (No space left on device)") == true, "\(line)")
        #expect((object["action"] as? String)?.contains("the demo keys were not stored") == true)
    }

    /// The secrets are written out before the keys are stored, so a start killed in between leaves no key whose
    /// secret nobody saw (it left three, and a restart that was no longer a first start, printing nothing).
    @Test func printsTheDemoSecretsBeforeStoringTheKeys() throws {
        let folder = NSTemporaryDirectory() + "first-start-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try SQLiteStore(directory: folder)
        let tenantsWhenPrinted = Mutex<[Int]>([])
        let printed = Mutex("")
        let environment = CommandEnvironment(
            standardOutput: { text in
                printed.withLock { $0 += text }
                if text.hasPrefix("ti_sandbox_") { tenantsWhenPrinted.withLock { $0.append((try? store.tenants().count) ?? -1) } }
            },
            standardError: { _ in }, variables: [:], isInteractive: false)
        let client = try #require(try FirstStart.provisionIfEmpty(store: store, environment: environment, log: EventLog(sink: CollectingLogSink())))
        #expect(tenantsWhenPrinted.withLock { $0 } == [0, 0, 0])
        #expect(try store.tenants().count == 1)
        #expect(printed.withLock { $0 }.contains(client.revealed))
        // Stored as printed: the printed client secret's hash is the stored key's, and a second start provisions nothing.
        let stored = try store.allKeys()
        #expect(stored.count == 3)
        #expect(stored.first { $0.keyID == client.keyID }?.secretHash == client.hash)
        #expect(try FirstStart.provisionIfEmpty(store: store, environment: environment, log: EventLog(sink: CollectingLogSink())) == nil)
    }

    /// A tenant table emptied by hand beside keys left is no empty folder: nothing is printed or provisioned (it printed
    /// demo secrets, then refused to store them and to start; regression probe, 7 December).
    @Test func aFolderWithKeysButNoTenantRowsIsNoFirstStart() throws {
        let folder = NSTemporaryDirectory() + "first-start-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try SQLiteStore(directory: folder)
        let printed = Mutex("")
        let environment = CommandEnvironment(
            standardOutput: { text in printed.withLock { $0 += text } }, standardError: { _ in }, variables: [:], isInteractive: false)
        #expect(try FirstStart.provisionIfEmpty(store: store, environment: environment, log: EventLog(sink: CollectingLogSink())) != nil)
        do {
            let connection = try SQLiteConnection(path: folder + "/" + SQLiteStore.fileName)
            try connection.execute("PRAGMA foreign_keys = OFF")
            try connection.execute("DELETE FROM tenant")
        }
        printed.withLock { $0 = "" }
        #expect(try FirstStart.provisionIfEmpty(store: store, environment: environment, log: EventLog(sink: CollectingLogSink())) == nil)
        #expect(printed.withLock { $0 }.isEmpty)
        #expect(try store.allKeys().count == 3 && store.tenants().isEmpty)
    }

    @Test func writesTheListeningURLWithIPv6InBrackets() {
        var configuration = ServiceConfiguration()
        configuration.host = "::1"
        #expect(configuration.urlHost == "[::1]")
        configuration.host = "0.0.0.0"
        #expect(configuration.urlHost == "0.0.0.0")
    }

    /// Unicode line breaks in a logged value are JSON escapes, so no reader splits the line there; the line still
    /// decodes to the value.
    @Test func unicodeLineBreaksInALoggedValueAreEscaped() throws {
        let sink = CollectingLogSink()
        let path = "x\u{2028}{\"level\":\"error\"}\u{2029}y\u{85}z"
        EventLog(sink: sink).error("start-up failed", [("reason", .text(path))])
        let line = try #require(sink.lines.first)
        #expect(line.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count == 1, "\(line)")
        #expect(line.contains(#"x\u2028{\"level\":\"error\"}\u2029y\u0085z"#), "\(line)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["reason"] as? String == path)
    }
}
