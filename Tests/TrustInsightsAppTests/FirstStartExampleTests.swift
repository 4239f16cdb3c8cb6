import InsightCore
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

    @Test func writesTheListeningURLWithIPv6InBrackets() {
        var configuration = ServiceConfiguration()
        configuration.host = "::1"
        #expect(configuration.urlHost == "[::1]")
        configuration.host = "0.0.0.0"
        #expect(configuration.urlHost == "0.0.0.0")
    }
}
