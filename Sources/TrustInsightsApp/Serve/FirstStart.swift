import HTTPServer
import InsightCore
import InsightStore

/// On the first start of an empty data folder: a `demo` tenant with one sandbox key per role, printed with a
/// working curl example, so a newcomer can call the service straight away.
enum FirstStart {
    /// Returns the demo client key's secret when it provisioned, for the curl example printed once listening.
    /// Secrets that could not be printed are reported in `log`, the JSON log on standard error (a plain-text line
    /// there would be the one line a log pipeline cannot parse).
    static func provisionIfEmpty(store: SQLiteStore, environment: CommandEnvironment, log: EventLog) throws -> APIKeySecret? {
        guard try store.holdsNoTenantData() else { return nil }
        let tenant = TenantID("demo")!
        let issuer = KeyIssuer(store: store)
        let now = Clock.nowMilliseconds()
        // Printed before they are stored: a start killed in between then leaves either keys whose secrets were
        // written out, or no keys, and the next start provisions afresh. Stored first, a kill before the print
        // left keys nobody had seen, and a next start that no longer counted as the first.
        let secrets = KeyRole.allCases.map { ($0, APIKeySecret.generate(environment: .sandbox)) }
        environment.print("First start: created tenant 'demo' with sandbox keys (shown only now; 'trust-insights keys list' shows their IDs).")
        for (role, secret) in secrets {
            environment.print("\(role.rawValue) key \(secret.keyID):")
            environment.print(secret.revealed)
        }
        // Secrets that reached nobody are not stored, as `keys create` revokes a key whose secret it could not
        // print: the folder stays empty, and the next start with a standard output someone reads is a first start.
        if let fault = environment.standardOutputFault() {
            log.warning("demo key secrets not shown", [
                ("fault", .text("could not be written to standard output (\(fault))")),
                ("action", "the demo keys were not stored: start again with a writable standard output to get them, or create keys with 'keys create'"),
            ])
            return nil
        }
        // One transaction: a storage failure part-way left the tenant with some of the keys, and the next start,
        // no longer a first start, provisioned nothing.
        try issuer.record(secrets, tenant: tenant, environment: .sandbox, now: now)
        // Said in the JSON log too, which an operator keeps and searches: standard output may go nowhere.
        log.info("first start", [
            ("tenant", "demo"), ("sandboxKeys", .text(secrets.map { $0.1.keyID }.joined(separator: ", "))),
            ("action", "an empty data folder: the demo tenant's sandbox keys were made and their secrets printed on standard output; revoke them ('keys revoke <keyID>') where that output is not private"),
        ])
        return secrets.first { $0.0 == .client }!.1
    }

    static func printExample(client: APIKeySecret, host: String, port: Int, environment: CommandEnvironment) {
        let reachable = ListenHost(host)?.localURLHost ?? host
        environment.print("""
            Try it:
              curl -s http://\(reachable):\(port)/v1/evaluations \\
                -H 'Authorization: Bearer \(client.revealed)' -H 'Content-Type: application/json' \\
                -d '\(DemoRequest.json)'
            """)
    }
}

/// The example request printed at first start and used in the README.
enum DemoRequest {
    static let json = #"{"requestID":"demo-1","operationCategory":"payment","requestedInsights":[{"insightType":"isLikelyBeingCoached","schema":"version1","modelVersion":"current"}],"subject":{"accountRef":"acct-123","deviceRef":"device-9","counterpartyRef":"payee-42"},"features":{"activeCall":1,"callDurationSeconds":640,"screenSharingActive":0,"sessionDurationSeconds":95,"timeOfDayBand":2,"amountBandRelativeToUsual":3}}"#
}
